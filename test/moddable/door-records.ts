/**
 * The door channel of the demo device as a witness of store-and-forward in the
 * desktop simulator. The simulated digital input on pin 4 toggles every
 * 3,000 ms of wall time (targets/moddable/sim/digital.js: 2 s + 250 ms x pin)
 * and the channel transmits on change (scan 200 ms), so every toggle is one
 * record: a lost record leaves a gap of two periods between the records the
 * service holds. Node only.
 */

/** Toggle period of the simulated door input (pin 4). */
export const DOOR_PERIOD_MS = 3_000;
const ADMIN = { Authorization: 'Bearer admin-token-demo' };

interface StateRecord {
  timestamp: number | string;
}

const timestampMs = (s: StateRecord): number =>
  typeof s.timestamp === 'number' ? s.timestamp * 1000 : Date.parse(s.timestamp);

/** Timestamps (ms, sorted) of the door.reported records the service holds in [fromMs, toMs). */
export async function doorRecords(serviceUrl: string, fromMs: number, toMs: number): Promise<number[]> {
  const query = `devices=demo-001&channels=door.reported&timeRangeStart=${fromMs / 1000}&timeRangeStop=${toMs / 1000}`;
  const r = await fetch(`${serviceUrl}/api/v1/states/read?${query}`, { headers: ADMIN });
  if (r.status !== 200) throw new Error(`states/read answered ${r.status}: ${await r.text()}`);
  const body = (await r.json()) as unknown;
  if (!Array.isArray(body)) throw new Error(`states/read: expected an array, got ${JSON.stringify(body)}`);
  return (body as StateRecord[]).map(timestampMs).sort((a, b) => a - b);
}

/**
 * What the firmware sampled and what the service holds of [fromMs, toMs]: the
 * records from the last one at or before `fromMs` (A) to the first one at or
 * after `toMs` (B). The door toggled round((B - A) / period) - 1 times strictly
 * between them (both timestamps come from the firmware's own clock, as the
 * simulated input's phase does, so a clock offset cancels out): `sampled`;
 * `delivered` is the count of records strictly between A and B. Undefined while
 * A or B is not at the service yet.
 */
export function tally(
  records: number[],
  fromMs: number,
  toMs: number,
): { sampled: number; delivered: number } | undefined {
  const a = records.filter((t) => t <= fromMs).pop();
  const b = records.find((t) => t >= toMs);
  if (a === undefined || b === undefined) return undefined;
  return {
    sampled: Math.round((b - a) / DOOR_PERIOD_MS) - 1,
    delivered: records.filter((t) => t > a && t < b).length,
  };
}
