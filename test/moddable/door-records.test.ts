/**
 * The door witness of the simulator's outage tests (door-records.ts), on made-up
 * series: it must count a record stamped late once, and catch a lost record and
 * a duplicate. Runs without the Moddable SDK.
 */
import assert from 'node:assert/strict';
import { DOOR_PERIOD_MS, tally, type DoorRecord } from './door-records.js';

/** Door records every period from t0, alternating values; `shift` moves record i by ms. */
function series(count: number, shift: Record<number, number> = {}): DoorRecord[] {
  const out: DoorRecord[] = [];
  for (let i = 0; i < count; i++) out.push({ t: 100_000 + i * DOOR_PERIOD_MS + (shift[i] ?? 0), value: i % 2 });
  return out;
}

const from = 100_000 + 500; // just after record 0 (A)
const to = 100_000 + 8 * DOOR_PERIOD_MS - 500; // just before record 8 (B)

describe('door witness of the simulator tests (tally)', () => {
  it('counts the toggles of a regular series, as many sampled as delivered', () => {
    assert.deepEqual(tally(series(10), from, to), { sampled: 7, delivered: 7 });
  });

  it('counts a record stamped late by up to a period once (a stalled simulator), at the ends too', () => {
    for (const shift of [{ 3: 1_600 }, { 0: -1_600 }, { 8: 1_600 }, { 0: 1_400, 4: 2_900 }]) {
      assert.deepEqual(tally(series(10, shift), from + 1_600, to), { sampled: 7, delivered: 7 }, JSON.stringify(shift));
    }
  });

  it('catches a lost record (two equal values in a row) and two lost in a row (a gap of three periods)', () => {
    const one = series(10).filter((_, i) => i !== 4);
    assert.deepEqual(tally(one, from, to), { sampled: 7, delivered: 6 });
    const two = series(10).filter((_, i) => i !== 4 && i !== 5);
    assert.deepEqual(tally(two, from, to), { sampled: 7, delivered: 5 });
  });

  it('catches a duplicate stamped apart (same value, no period between)', () => {
    const records = series(10);
    records.splice(5, 0, { t: (records[4]?.t ?? 0) + 400, value: records[4]?.value });
    assert.deepEqual(tally(records, from, to), { sampled: 7, delivered: 8 });
  });

  it('is undefined until the records around the window are at the service', () => {
    assert.equal(tally(series(6), from, to), undefined);
  });
});
