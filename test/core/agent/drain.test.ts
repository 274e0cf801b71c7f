/**
 * A host's clean stop (`Agent.drain`, Ctrl-C on `npm run agent`/`device`):
 * sampling stops, the open batches close and what is queued is delivered
 * while the service takes it, within the time given; offline it does not wait
 * for a retry; what is left is written to the store and counted.
 */
import { assert } from '../../support/assert.js';
import { ch, world } from './harness.js';

const counter = ch('count', 'analogInput', { pin: 1, scanInterval: 100, transmitEvents: [] });

describe('agent: drain, the clean stop of a host', () => {
  it('delivers the open batch and everything queued, stops sampling, resolves with 0 left', async () => {
    const w = world({ channels: [counter] });
    await w.agent.start();
    await w.clock.advanceAsync(450); // 5 samples in the open batch (it closes after 1 s)
    assert.equal(w.http.statesOf('count.reported').length, 0);
    const left = w.agent.drain(3000);
    await w.clock.advanceAsync(100);
    assert.equal(await left, 0);
    assert.equal(w.http.statesOf('count.reported').length, 5);
    assert.equal(w.agent.delivery, 'stopped');
    await w.clock.advanceAsync(1000);
    assert.equal(w.agent.counters.sampled, 5, 'no sample after the stop');
    w.logger.assertNoErrors();
  });

  it('offline: does not wait for the retry; the records left are counted and kept in the store', async () => {
    const w = world({ channels: [counter] });
    await w.agent.start();
    w.http.offline = true;
    await w.clock.advanceAsync(1450); // one batch failed (the sender waits), a second one open
    assert.equal(w.agent.delivery, 'waiting');
    const started = w.clock.monotonicMs();
    const left = w.agent.drain(3000);
    await w.clock.advanceAsync(3000);
    assert.equal(await left, 15);
    assert.ok(w.clock.monotonicMs() - started <= 3000);
    assert.ok(w.store.keys('outbox').length > 0, 'written for the next run');
  });

  it('a service that does not answer: gives up after the time given, with the batch still queued', async () => {
    const w = world({ channels: [counter] });
    await w.agent.start();
    await w.clock.advanceAsync(250);
    w.http.hold = true;
    let settled = false;
    const left = w.agent.drain(3000).then((n) => ((settled = true), n));
    await w.clock.advanceAsync(2900);
    assert.equal(settled, false, 'still waiting for the answer');
    assert.equal(w.agent.counters.sampled, 3, 'no scan while draining');
    await w.clock.advanceAsync(200);
    assert.equal(await left, 3);
    w.http.release();
  });
});
