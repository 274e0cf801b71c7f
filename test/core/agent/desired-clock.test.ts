/**
 * Clock faults on desired values (decisions 8): a record dated beyond the
 * device's time plus the tolerance is applied but cannot block later records;
 * the same rule holds on resync; logged once per channel.
 */
import { FakeClock } from '../../fakes/fake-clock.js';
import { assert } from '../../support/assert.js';
import { ch, world } from './harness.js';

const T0 = Date.UTC(2026, 0, 1, 12);
const relay = ch('relay', 'digitalOutput', { pin: 5, scanInterval: 1000, transmitEvents: [{ type: 'change' }] });
const lamp = ch('lamp', 'digitalOutput', { pin: 6, scanInterval: 1000, transmitEvents: [{ type: 'change' }] });

function setup(): ReturnType<typeof world> {
  return world({
    clock: new FakeClock(T0),
    channels: [relay, lamp],
    agent: { configRefreshMs: 0, desiredToleranceMs: 60000 },
  });
}

function desiredLast(key: string, value: unknown, timestampMs: number): unknown {
  return { channel: `product-uid:${key}.desired`, value, entity: 'dev-uid', timestamp: timestampMs / 1000 };
}

describe('agent: desired values and clock faults', () => {
  it('applies a far-future record, then a normal later one (milliseconds sent as seconds)', async () => {
    const w = setup();
    await w.agent.start();
    await w.clock.advanceAsync(10);
    const farFuture = T0 * 1000; // a millisecond count taken for seconds
    await w.agent.applyDesired({ key: 'relay', value: true, timestampMs: farFuture });
    await w.clock.advanceAsync(2000);
    await w.agent.applyDesired({ key: 'relay', value: false, timestampMs: w.clock.wallMs() });
    assert.deepEqual(w.pins.writes, [
      { pin: 5, value: true },
      { pin: 5, value: false },
    ]);
    assert.equal(w.agent.counters.desiredApplied, 2);
    const warned = w.logger.find('warn', 'dated ahead of the device clock');
    assert.equal(warned.length, 1);
    assert.equal(warned[0]?.fields?.['key'], 'relay');
    w.agent.stop();
  });

  it('keeps ordering: a record older than the device time at the fault is still ignored', async () => {
    const w = setup();
    await w.agent.start();
    await w.clock.advanceAsync(10_000);
    await w.agent.applyDesired({ key: 'relay', value: true, timestampMs: T0 + 86_400_000 });
    await w.agent.applyDesired({ key: 'relay', value: false, timestampMs: T0 + 5_000 }); // before the fault's device time
    assert.deepEqual(w.pins.writes, [{ pin: 5, value: true }]);
    assert.equal(w.agent.counters.desiredIgnored, 1);
    w.agent.stop();
  });

  it('treats a record within the tolerance as a normal one (it may block for at most the tolerance)', async () => {
    const w = setup();
    await w.agent.start();
    await w.agent.applyDesired({ key: 'relay', value: true, timestampMs: T0 + 30_000 });
    await w.agent.applyDesired({ key: 'relay', value: false, timestampMs: T0 + 20_000 });
    await w.clock.advanceAsync(31_000);
    await w.agent.applyDesired({ key: 'relay', value: false, timestampMs: w.clock.wallMs() });
    assert.deepEqual(w.pins.writes, [
      { pin: 5, value: true },
      { pin: 5, value: false },
    ]);
    assert.equal(w.logger.find('warn', 'dated ahead').length, 0);
    w.agent.stop();
  });

  it('on resync, does not apply the far-future record again once a later one was applied', async () => {
    const w = setup();
    await w.agent.start();
    const farFuture = T0 + 365 * 86_400_000;
    w.http.desired = [desiredLast('relay', true, farFuture), desiredLast('lamp', true, farFuture)];
    await w.agent.resyncDesired(); // a boot: the service's latest wish is applied
    await w.clock.advanceAsync(1000);
    await w.agent.applyDesired({ key: 'relay', value: false, timestampMs: w.clock.wallMs() });
    // A reconnect: read/last orders by time, so it answers the far-future records again.
    await w.agent.resyncDesired();
    assert.deepEqual(w.pins.writes, [
      { pin: 5, value: true },
      { pin: 6, value: true },
      { pin: 5, value: false },
    ]);
    assert.equal(w.logger.find('warn', 'dated ahead').length, 2, 'once per far-future record, not again on resync');
    await w.agent.applyDesired({ key: 'relay', value: true, timestampMs: farFuture + 1 });
    assert.equal(w.logger.find('warn', 'dated ahead').length, 3, 'a new far-future record is logged');
    assert.equal(w.pins.writes.length, 4, 'a new far-future record is still applied');
    w.agent.stop();
  });
});
