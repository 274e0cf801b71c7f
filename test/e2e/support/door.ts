/**
 * The door signal the end-to-end tests drive: it toggles every 500 ms and is
 * scanned every 200 ms, reporting each change, so the records the service must
 * hold for any window of agent time are known exactly.
 */

/** The door's level at `nowMs` of agent time. */
export const toggling = (nowMs: number): boolean => Math.floor(nowMs / 500) % 2 === 1;

/** Door values (and their scan times) expected from scans at multiples of 200 in [fromMs, toMs). */
export function expectedDoor(fromMs: number, toMs: number): Array<[boolean, number]> {
  const out: Array<[boolean, number]> = [];
  let last: boolean | undefined;
  for (let t = fromMs; t < toMs; t += 200) {
    const level = toggling(t);
    if (level !== last) out.push([level, t]);
    last = level;
  }
  return out;
}
