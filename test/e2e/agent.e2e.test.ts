/**
 * End to end (docs/agent.md): the agent on the Node target
 * against the local service on loopback. Simulated inputs change; exactly the
 * `.reported` states the transmit events call for arrive, with the sampling
 * timestamps, read back through `states/read`.
 */
import assert from 'node:assert/strict';
import { FakeClock } from '../fakes/fake-clock.js';
import { pump, readStates, until, useE2eHarness } from './support/harness.js';

describe('e2e: agent on Node against the local service', function () {
  this.timeout(30000);
  const h = useE2eHarness();

  it('reports what the transmit events call for, and nothing else', async () => {
    const clock = new FakeClock(Date.UTC(2026, 0, 1, 12));
    const t0 = clock.wallMs();
    const service = await h.startService(clock);
    const run = await h.startAgent(service.url, clock);
    // door: digitalInput pin 4, scan 200, [change]; temperature: pin 34, gain 0.1 offset -40,
    // scan 1000, [delta 0.5, interval 60000]; battery: pin 35, scan 5000, [] (every scan).
    run.pins.setSource(4, (now) => now >= 1000 && now < 2500);
    run.pins.setSource(34, (now) => (now < 3000 ? 610 : now < 5000 ? 613 : 616));
    run.pins.setSource(35, () => 3700);
    await pump(clock, run.agent, 9900);
    run.agent.flush();
    await pump(clock, run.agent, 100);
    const states = await readStates(service.url, '*.reported', t0 / 1000 - 1);
    const of = (channel: string): Array<[unknown, number]> =>
      states.filter((s) => s.channel === channel).map((s) => [s.value ?? s.error, Math.round(s.timestamp * 1000 - t0)]);
    assert.deepEqual(of('door.reported'), [
      [false, 0],
      [true, 1000],
      [false, 2600],
    ]);
    assert.deepEqual(of('temperature.reported'), [
      [21, 0],
      [21.6, 5000],
    ]);
    assert.deepEqual(of('battery.reported'), [
      [3.7, 0],
      [3.7, 5000],
    ]);
    assert.deepEqual(of('relay.reported'), [[false, 0]]);
    assert.deepEqual(of('dimmer.reported'), [[0, 0]]);
    assert.equal(of('uptime.reported').length, 1, 'uptime: scan 10000, reported at 0 only');
    assert.deepEqual(of('note.reported'), [], 'a custom value never published is not reported');
    for (const key of ['flow', 'total', 'pump', 'setpoint', 'pressure', 'engineSpeed', 'coolantTemp']) {
      assert.deepEqual(of(`${key}.reported`), [[-19, 0]], `${key}: its bus is not wired (no --bus): -ENODEV`);
    }
    for (const field of ['lat', 'lon', 'alt', 'pdop', 'hdop', 'vdop', 'sats']) {
      assert.deepEqual(of(`gps.${field}.reported`), [[-95, 0]]);
    }
    const known = new Set(states.map((s) => s.channel.split('.')[0]));
    assert.equal(known.size, 14, 'every channel of the product but note, and no other');
    assert.equal(run.agent.counters.queued, 0);
    assert.ok(run.agent.counters.requests <= 12, `batched: ${run.agent.counters.requests} requests`);
    run.log.assertNoErrors();
    run.stop();
  });

  it('applies a desired value written over HTTP (resync path) and echoes .reported', async () => {
    const clock = new FakeClock(Date.UTC(2026, 0, 1, 12));
    const t0 = clock.wallMs();
    const service = await h.startService(clock);
    const run = await h.startAgent(service.url, clock);
    await pump(clock, run.agent, 1000);
    const write = await fetch(`${service.url}/api/v1/states/write`, {
      method: 'POST',
      headers: { authorization: 'Bearer admin-token-demo', 'content-type': 'application/json' },
      body: JSON.stringify({ device: 'demo-001', states: [{ channel: 'dimmer.desired', value: 50 }] }),
    });
    assert.equal(write.status, 200);
    await run.agent.resyncDesired();
    assert.equal(run.pins.output(18), 512);
    await pump(clock, run.agent, 2000);
    const dimmer = (await readStates(service.url, 'dimmer.reported', t0 / 1000 - 1)).map((s) => s.value);
    assert.deepEqual(dimmer, [0, 50.048875855]);
    run.stop();
  });

  it('opens the hub: a desired value written over HTTP drives the output through Notify', async () => {
    const clock = new FakeClock(Date.now());
    const service = await h.startService(clock);
    const run = await h.startAgent(service.url, clock, { hub: true });
    await until(() => run.hub?.status === 'connected');
    const write = await fetch(`${service.url}/api/v1/states/write`, {
      method: 'POST',
      headers: { authorization: 'Bearer admin-token-demo', 'content-type': 'application/json' },
      body: JSON.stringify({ device: 'demo-001', states: [{ channel: 'relay.desired', value: true }] }),
    });
    assert.equal(write.status, 200);
    await until(() => run.pins.output(5) === true);
    assert.equal(run.agent.counters.desiredApplied, 1);
    run.stop();
    run.log.assertNoErrors();
  });
});
