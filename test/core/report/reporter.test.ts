/**
 * The reporter's held records: while the wall time is unknown, samples are held (at most `maxHeld`,
 * the oldest dropped and counted), then stamped with their true time and batched, oldest first.
 */
import { createCoreCounters } from '../../../src/agent/counters.js';
import { Batcher } from '../../../src/report/batcher.js';
import { Reporter } from '../../../src/report/reporter.js';
import { WallTime } from '../../../src/time/wall-time.js';
import { FakeClock } from '../../fakes/fake-clock.js';
import { assert } from '../../support/assert.js';

describe('report/reporter', () => {
  it('holds at most maxHeld records while the time is unknown, drops the oldest, then stamps the rest', () => {
    const clock = new FakeClock(0); // a board in 1970
    const wall = new WallTime(clock);
    const batches: string[] = [];
    const batcher = new Batcher(clock, { maxRecords: 100, maxBytes: 4096, maxAgeMs: 1000 }, (_lane, json) => {
      batches.push(json);
    });
    const reporter = new Reporter(wall, batcher, createCoreCounters(), 3);
    for (let i = 1; i <= 5; i++) {
      reporter.channel('t', false, { ok: true, value: i }, clock.monotonicMs());
      clock.advance(1000);
    }
    assert.equal(reporter.held.length, 3);
    assert.equal(reporter.droppedHeld, 2);
    assert.equal(batches.length, 0, 'nothing stamped while the time is unknown');
    wall.observeHttpDate('Thu, 01 Jan 2026 00:00:10 GMT'); // seen at monotonic 5000
    assert.equal(reporter.held.length, 0);
    batcher.flush();
    const records = JSON.parse(batches.join('')) as Array<{ value: number; timestamp: number }>;
    const at = (ms: number) => (Date.UTC(2026, 0, 1, 0, 0, 5, 500) + ms) / 1000;
    assert.deepEqual(
      records.map((r) => [r.value, r.timestamp]),
      [
        [3, at(2000)],
        [4, at(3000)],
        [5, at(4000)],
      ],
    );
    reporter.channel('t', false, { ok: true, value: 6 }, clock.monotonicMs());
    assert.equal(reporter.held.length, 0, 'stamped at once now');
  });
});
