/**
 * Prompt delivery (docs/agent.md): a desired echo goes out at once, in its own
 * small batch, not after the batch timer; and once any request to the service
 * succeeds (a configuration read, the desired resync after a hub reconnect)
 * the outbox retries at once instead of waiting out its back-off.
 */
import { Batcher } from '../../../src/report/batcher.js';
import { FakeClock } from '../../fakes/fake-clock.js';
import { assert } from '../../support/assert.js';
import { ch, world } from '../agent/harness.js';

const T0 = Date.UTC(2026, 0, 1);

describe('prompt delivery', () => {
  it('a prompt record closes its lane at once, with the records before it; the other lane waits', () => {
    const clock = new FakeClock();
    const out: string[] = [];
    const b = new Batcher(clock, { maxRecords: 100, maxBytes: 10000, maxAgeMs: 1000 }, (lane, json) =>
      out.push(lane + json),
    );
    b.add('m', '1');
    b.add('s', '2');
    b.add('s', '3', true);
    assert.deepEqual(out, ['s[2,3]']);
    clock.advance(1000);
    assert.deepEqual(out, ['s[2,3]', 'm[1]']);
  });

  it('a desired echo reaches the service without waiting for the batch timer', async () => {
    const relay = ch('relay', 'digitalOutput', { pin: 5, scanInterval: 60000, transmitEvents: [{ type: 'change' }] });
    const w = world({ channels: [relay] });
    await w.agent.start();
    await w.clock.advanceAsync(1000); // the first report, through the timer
    assert.equal(w.http.statesOf('relay.reported').length, 1);
    await w.agent.applyDesired({ key: 'relay', value: true, timestampMs: T0 + 5000 });
    await w.clock.advanceAsync(0);
    assert.deepEqual(
      w.http.statesOf('relay.reported').map((s) => s.value),
      [false, true],
      'echoed with no time passing',
    );
    w.agent.stop();
  });

  it('after an outage, the first successful request to the service restarts delivery at once', async () => {
    const counter = ch('count', 'analogInput', { pin: 1, scanInterval: 100, transmitEvents: [] });
    const w = world({ channels: [counter] });
    await w.agent.start();
    w.http.offline = true;
    await w.clock.advanceAsync(30000); // the back-off grows to its cap (5 s in this harness)
    assert.equal(w.agent.delivery, 'waiting');
    const sent = w.agent.counters.sent;
    w.http.offline = false;
    await w.agent.resyncDesired(); // what the hub glue does on every reconnect
    await w.clock.advanceAsync(0);
    assert.equal(w.agent.counters.queued, 0, 'delivered with no time passing');
    assert.ok(w.agent.counters.sent > sent + 200);
    w.agent.stop();
  });
});
