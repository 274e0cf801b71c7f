/**
 * Flash-aware persistence through the agent (docs/agent.md, "Flash and power
 * cuts"): online, the outbox never touches the store; during an outage its
 * batches reach the store, and are deleted once delivered; a clean stop
 * writes what is queued, for the next run.
 */
import { FakeStore } from '../../fakes/fake-store.js';
import { assert } from '../../support/assert.js';
import { ch, world } from '../agent/harness.js';

/** A FakeStore that counts writes under the outbox's prefix. */
class OutboxCountingStore extends FakeStore {
  outboxWrites = 0;
  override set(key: string, value: string): void {
    if (key.startsWith('outbox/')) this.outboxWrites++;
    super.set(key, value);
  }
}

const counter = ch('count', 'analogInput', { pin: 1, scanInterval: 100, transmitEvents: [] });

describe('flash-aware outbox through the agent', () => {
  it('online for a minute: every record delivered, nothing written to the outbox store', async () => {
    const store = new OutboxCountingStore();
    const w = world({ store, channels: [counter] });
    await w.agent.start();
    await w.clock.advanceAsync(60000);
    assert.ok(w.agent.counters.sent >= 590, `sent ${w.agent.counters.sent}`);
    assert.equal(store.outboxWrites, 0);
    w.agent.stop();
  });

  it('during an outage the batches reach the store; once delivered, their entries are deleted', async () => {
    const store = new OutboxCountingStore();
    const w = world({ store, channels: [counter] });
    await w.agent.start();
    w.http.offline = true;
    await w.clock.advanceAsync(20000);
    assert.ok(store.outboxWrites >= 4, `outbox writes ${store.outboxWrites}`);
    assert.ok(store.outboxWrites <= 12, `about one per 5 s, not one per batch: ${store.outboxWrites}`);
    assert.ok(store.keys('outbox/').length > 0);
    w.http.offline = false;
    await w.clock.advanceAsync(10000);
    assert.equal(w.agent.counters.queued, 0);
    assert.deepEqual(store.keys('outbox/'), []);
    w.agent.stop();
  });

  it('a clean stop writes the queued batches; the next run delivers them', async () => {
    const store = new OutboxCountingStore();
    const a = world({ store, channels: [counter] });
    await a.agent.start();
    a.http.hold = true; // the service does not answer: batches wait in RAM behind the request in flight
    for (let i = 1; i <= 25; i++) {
      a.pins.analog.set(1, i);
      await a.clock.advanceAsync(100);
    }
    assert.equal(store.outboxWrites, 0, 'nothing written before the stop');
    a.agent.stop();
    assert.ok(store.keys('outbox/').length > 0, 'written at stop');
    a.http.hold = false;
    a.http.release();
    const b = world({ store, channels: [counter] });
    await b.agent.start();
    await b.clock.advanceAsync(100);
    const values = b.http.statesOf('count.reported').map((s) => s.value);
    for (let i = 1; i <= 25; i++) assert.ok(values.includes(i), `value ${i} delivered by the next run`);
    b.agent.stop();
  });
});
