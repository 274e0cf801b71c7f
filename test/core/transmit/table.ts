/**
 * The table runner of the transmit event tests (decisions.md section 3): each
 * row feeds samples at monotonic times and lists which of them are reported.
 */
import type { Location, Sample } from '../../../src/agent/driver.js';
import type { TransmitEvent } from '../../../src/config/model.js';
import { TransmitDecider } from '../../../src/transmit/decider.js';
import { assert } from '../../support/assert.js';

export type Step = [atMs: number, sample: number | boolean | string | Location | { errno: number }];

export interface Row {
  name: string;
  events: TransmitEvent[];
  steps: Step[];
  /** Which steps are reported. */
  expected: boolean[];
}

function toSample(v: Step[1]): Sample {
  if (typeof v === 'object' && 'errno' in v) return { ok: false, errno: v.errno };
  return { ok: true, value: v };
}

export function run(row: Row): void {
  const decider = new TransmitDecider(row.events);
  const got = row.steps.map(([at, v]) => decider.decide(toSample(v), at));
  assert.deepEqual(got, row.expected, row.name);
}

export const change: TransmitEvent = { type: 'change' };
export const delta = (minimalChange: number): TransmitEvent => ({ type: 'delta', minimalChange });
export const interval = (intervalMs: number): TransmitEvent => ({ type: 'interval', intervalMs });
export const threshold = (t: number, hysteresis: number): TransmitEvent => ({
  type: 'threshold',
  threshold: t,
  hysteresis,
});
export const E = (errno: number): { errno: number } => ({ errno });

/** Registers one describe per rule, one it per row. */
export function runTables(tables: Record<string, Row[]>): void {
  for (const [rule, rows] of Object.entries(tables)) {
    describe(rule, () => {
      for (const row of rows) it(row.name, () => run(row));
    });
  }
}
