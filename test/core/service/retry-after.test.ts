/**
 * The agent honours `Retry-After` on 429 and 503 (decisions 10): the sender,
 * the configuration reads and the hub's negotiate each wait at least what the
 * service asked before their next request, and no record is lost. Portable: runs
 * on Node and on XS (test/xs).
 */
import { retryAfterMs, waitAfter, AgentError } from '../../../src/errors.js';
import { Paths } from '../../../src/wire.js';
import { assert } from '../../support/assert.js';
import { ch, world } from '../agent/harness.js';
import { harness } from '../signalr/harness.js';

const writes = [Paths.statesWrite, Paths.measurementsWrite];

describe('Retry-After (429, 503)', () => {
  it('reads delta-seconds, or an HTTP date against the answer Date, only on 429 and 503', () => {
    assert.equal(retryAfterMs(429, { 'retry-after': '7' }), 7000);
    assert.equal(retryAfterMs(503, { 'retry-after': ' 0 ' }), 0);
    const date = 'Thu, 01 Jan 2026 00:00:00 GMT';
    assert.equal(retryAfterMs(503, { 'retry-after': 'Thu, 01 Jan 2026 00:00:30 GMT', date }), 30000);
    assert.equal(retryAfterMs(503, { 'retry-after': 'Wed, 31 Dec 2025 23:00:00 GMT', date }), 0);
    assert.equal(retryAfterMs(429, { 'retry-after': 'soon' }), undefined);
    assert.equal(retryAfterMs(500, { 'retry-after': '7' }), undefined);
    assert.equal(retryAfterMs(429, {}), undefined);
    const e = new AgentError('http.status', 'x', { status: 429, retryAfterMs: 9000 });
    assert.equal(waitAfter(e, 1000), 9000);
    assert.equal(waitAfter(e, 12000), 12000);
    assert.equal(waitAfter(new AgentError('network', 'x'), 1000), 1000);
  });

  for (const status of [429, 503]) {
    it(`the sender waits out a ${status}'s Retry-After (longer than its back-off) and loses no record`, async () => {
      const counter = ch('count', 'analogInput', { pin: 1, scanInterval: 100, transmitEvents: [] });
      const w = world({ channels: [counter] });
      await w.agent.start();
      await w.clock.advanceAsync(1000);
      const deliveredBefore = w.http.states.length;
      assert.ok(deliveredBefore > 0);
      w.http.busy = { status, retryAfter: '30', paths: writes };
      await w.clock.advanceAsync(1500); // the next batch meets the refusal
      assert.equal(w.http.busyAnswers, 1);
      assert.equal(w.agent.delivery, 'waiting');
      await w.clock.advanceAsync(28000); // the harness back-off alone would have retried after 1 s
      assert.equal(w.http.busyAnswers, 1, 'no request before Retry-After is over');
      w.http.busy = undefined;
      await w.clock.advanceAsync(2000);
      assert.equal(w.agent.counters.queued, 0, 'everything queued went out');
      assert.equal(w.agent.counters.rejected, 0);
      const values = w.http.statesOf('count.reported').map((s) => s.timestamp);
      assert.equal(new Set(values).size, values.length, 'no record twice');
      assert.equal(w.agent.counters.sent, w.http.states.length, 'every record sent arrived once');
      w.agent.stop();
    });
  }

  it('a configuration read answered 503 is retried only after its Retry-After', async () => {
    const w = world({ channels: [ch('count', 'analogInput', { pin: 1, scanInterval: 1000 })] });
    w.http.busy = { status: 503, retryAfter: '20', paths: [Paths.channelsList] };
    await w.agent.start();
    assert.equal(w.http.busyAnswers, 1);
    await w.clock.advanceAsync(19000);
    assert.equal(w.http.busyAnswers, 1, 'not asked again within 20 s');
    w.http.busy = undefined;
    await w.clock.advanceAsync(1000);
    const reads = w.http.requests.filter((r) => r.url.includes(Paths.channelsList)).length;
    assert.equal(reads, 2, 'read again at 20 s');
    w.agent.stop();
  });

  it("the hub waits a negotiate 429's Retry-After before the next attempt", async () => {
    const h = harness();
    h.http.script.push({ status: 429, headers: { 'retry-after': '12' }, body: '{}' });
    h.client.start();
    await h.clock.advanceAsync(11999); // the policy alone says 1 s
    assert.equal(h.http.requests.length, 1);
    await h.clock.advanceAsync(1);
    assert.equal(h.http.requests.length, 2);
    assert.equal(h.sockets.sockets.length, 1, 'the second negotiate opened the socket');
    h.client.stop();
  });
});
