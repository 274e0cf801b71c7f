/**
 * A batch refused whole for one bad record (not a removed channel): the sender
 * halves it down to the records refused on their own; the records around them
 * are delivered, in order, and only the bad ones are dropped.
 */
import { Paths } from '../../../src/wire.js';
import { assert } from '../../support/assert.js';
import { ch, world, type World } from '../agent/harness.js';

const note = ch('note', 'custom', { customType: 'number', transmitEvents: [{ type: 'change' }] });

/** Write requests the fake service has seen. */
const writes = (w: World): number => w.http.requests.filter((r) => r.url.endsWith(Paths.statesWrite)).length;

/** A world whose batches close only after 10 s, so that n < 50 published values make one batch. */
const slowBatches = (): World =>
  world({ channels: [note], agent: { batch: { maxRecords: 50, maxBytes: 16384, maxAgeMs: 10000 } } });

async function oneBatch(w: World, n: number): Promise<number[]> {
  await w.agent.start();
  for (let i = 1; i <= n; i++) {
    w.custom.publish('note', i);
    await w.clock.advanceAsync(100); // one scan each, all within one batch's age
  }
  return Array.from({ length: n }, (_, i) => i + 1);
}

describe('report: a batch refused for one of its records', () => {
  it('delivers every other record in order and drops only the bad ones, in about 2 log2(n) requests each', async () => {
    const w = slowBatches();
    const all = await oneBatch(w, 40);
    w.http.refuseRecord = (record) => record.value === 13 || record.value === 29;
    await w.clock.advanceAsync(10000);
    const values = w.http.statesOf('note.reported').map((r) => r.value);
    assert.deepEqual(
      values,
      all.filter((v) => v !== 13 && v !== 29),
    );
    assert.ok(writes(w) <= 2 * 2 * Math.ceil(Math.log2(40)) + 2, `requests ${writes(w)}`);
    assert.equal(w.agent.counters.rejected, 2);
    assert.equal(w.agent.counters.queued, 0);
    assert.equal(w.logger.find('error', 'record refused').length, 2);
    w.agent.stop();
  });

  it('after a network failure midway, delivers exactly the records neither delivered nor dropped', async () => {
    const w = slowBatches();
    const all = await oneBatch(w, 16);
    w.http.refuseRecord = (record) => {
      if (writes(w) === 4) w.http.offline = true; // the next request fails
      return record.value === 3;
    };
    await w.clock.advanceAsync(10000);
    assert.equal(w.agent.online, false);
    w.http.offline = false;
    await w.clock.advanceAsync(60000);
    const values = w.http.statesOf('note.reported').map((r) => r.value);
    assert.deepEqual(
      values,
      all.filter((v) => v !== 3),
      'each once, in order',
    );
    assert.equal(w.agent.counters.rejected, 1);
    assert.equal(w.agent.counters.queued, 0);
    w.agent.stop();
  });

  it('with records published over time: one refused record does not take the batch down with it', async () => {
    const w = world({ channels: [note] });
    await w.agent.start();
    w.http.refuseRecord = (record) => record.value === 13;
    for (let i = 1; i <= 20; i++) {
      w.custom.publish('note', i);
      await w.clock.advanceAsync(100);
    }
    await w.clock.advanceAsync(2000);
    const values = w.http.statesOf('note.reported').map((r) => r.value);
    assert.deepEqual(
      values,
      Array.from({ length: 20 }, (_, i) => i + 1).filter((v) => v !== 13),
    );
    assert.equal(w.agent.counters.rejected, 1);
    assert.equal(w.agent.counters.queued, 0);
    assert.equal(w.logger.find('error', 'record refused').length, 1);
    w.agent.stop();
  });
});
