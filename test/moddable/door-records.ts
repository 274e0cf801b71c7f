/**
 * The door channel of the demo device as a witness of store-and-forward in the
 * desktop simulator. The simulated digital input on pin 4 toggles every
 * 3,000 ms of wall time (targets/moddable/sim/digital.js: 2 s + 250 ms x pin)
 * and the channel transmits on change (scan 200 ms), so every toggle is one
 * record: a lost record leaves a gap of two periods between the records the
 * service holds. Also the count of every record the service stored (the CPU per
 * record of the keep-alive suite and bench:mcsim). Node only.
 */

import Database from 'better-sqlite3';

/** Toggle period of the simulated door input (pin 4). */
export const DOOR_PERIOD_MS = 3_000;
const ADMIN = { Authorization: 'Bearer admin-token-demo' };

interface StateRecord {
  timestamp: number | string;
  value?: unknown;
}

/** One door record as the service holds it: firmware time (ms) and value. */
export interface DoorRecord {
  t: number;
  value: unknown;
}

const timestampMs = (s: StateRecord): number =>
  typeof s.timestamp === 'number' ? s.timestamp * 1000 : Date.parse(s.timestamp);

/** GET `url` with the admin token: the status and the JSON body. */
export type GetJson = (url: string, headers: Record<string, string>) => Promise<{ status: number; body: unknown }>;

const fetchJson: GetJson = async (url, headers) => {
  const r = await fetch(url, { headers });
  return { status: r.status, body: (await r.json()) as unknown };
};

/** The door.reported records the service holds in [fromMs, toMs), sorted by time (`get`: e.g. with a CA for https). */
export async function doorRecords(
  serviceUrl: string,
  fromMs: number,
  toMs: number,
  get: GetJson = fetchJson,
): Promise<DoorRecord[]> {
  const query = `devices=demo-001&channels=door.reported&timeRangeStart=${fromMs / 1000}&timeRangeStop=${toMs / 1000}`;
  const { status, body } = await get(`${serviceUrl}/api/v1/states/read?${query}`, ADMIN);
  if (status !== 200) throw new Error(`states/read answered ${status}: ${JSON.stringify(body)}`);
  if (!Array.isArray(body)) throw new Error(`states/read: expected an array, got ${JSON.stringify(body)}`);
  return (body as StateRecord[]).map((s) => ({ t: timestampMs(s), value: s.value })).sort((a, b) => a.t - b.t);
}

/**
 * The toggles of the door over one gap `gapMs` between two consecutive records
 * of values `before` and `after`: one per period, rounded to the nearest odd
 * count when the values differ and to the nearest even count when they are
 * equal (a toggle always flips the value). So a record stamped late (the
 * simulator stalled for up to a period) still counts once, one lost record
 * shows as two equal values in a row, and a duplicate (equal value, no period
 * between) counts zero toggles.
 */
export function togglesIn(gapMs: number, before: unknown, after: unknown): number {
  const periods = gapMs / DOOR_PERIOD_MS;
  const odd = JSON.stringify(before) !== JSON.stringify(after);
  const base = odd ? 2 * Math.floor((periods - 1) / 2) + 1 : 2 * Math.floor(periods / 2);
  const up = base + 2;
  return Math.max(odd ? 1 : 0, periods - base <= up - periods ? base : up);
}

/**
 * What the firmware sampled and what the service holds of [fromMs, toMs]: the
 * records from the last one at or before `fromMs` (A) to the first one at or
 * after `toMs` (B). `sampled` is the count of toggles strictly between them
 * (`togglesIn` summed over the gaps, less B's own; both ends of a gap are
 * stamped by the firmware's own clock, as the simulated input's phase is, so a
 * clock offset cancels out); `delivered` is the count of records strictly
 * between A and B. Undefined while A or B is not at the service yet.
 */
export function tally(
  records: readonly DoorRecord[],
  fromMs: number,
  toMs: number,
): { sampled: number; delivered: number } | undefined {
  let a = -1;
  records.forEach((r, i) => {
    if (r.t <= fromMs) a = i;
  });
  const b = records.findIndex((r) => r.t >= toMs);
  if (a < 0 || b < 0) return undefined;
  let toggles = 0;
  for (let i = a + 1; i <= b; i++) {
    const [prev, next] = [records[i - 1], records[i]];
    if (prev !== undefined && next !== undefined) toggles += togglesIn(next.t - prev.t, prev.value, next.value);
  }
  return { sampled: toggles - 1, delivered: b - a - 1 };
}

/** The records as text for a failure message: time since the first one (s) and value. */
export function describeRecords(records: readonly DoorRecord[]): string {
  const first = records[0]?.t ?? 0;
  return records.map((r) => `+${((r.t - first) / 1000).toFixed(3)}s=${JSON.stringify(r.value)}`).join(' ');
}

/** Every record the service has stored (states and measurements), counted in its database at `dbPath`. */
export function storedRecords(dbPath: string): number {
  const db = new Database(dbPath, { readonly: true, fileMustExist: true });
  try {
    const count = (table: string): number =>
      (db.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n;
    return count('states') + count('measurements');
  } finally {
    db.close();
  }
}
