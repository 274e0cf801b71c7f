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

/** Toggles of the simulated door strictly inside (fromMs, toMs): records the firmware sampled there. */
export function togglesBetween(fromMs: number, toMs: number): number {
  return Math.max(0, Math.floor((toMs - 1) / DOOR_PERIOD_MS) - Math.floor(fromMs / DOOR_PERIOD_MS));
}

/**
 * Whether `records` cover [fromMs, toMs] without a lost toggle: one record at or
 * before `fromMs`, one at or after `toMs`, and no two consecutive records
 * further apart than 1.5 periods (a lost toggle makes a gap of two periods).
 */
export function covers(records: number[], fromMs: number, toMs: number): boolean {
  const first = records[0];
  const last = records[records.length - 1];
  if (first === undefined || last === undefined || first > fromMs || last < toMs) return false;
  return records.every((t, i) => i === 0 || t - (records[i - 1] ?? t) <= DOOR_PERIOD_MS * 1.5);
}
