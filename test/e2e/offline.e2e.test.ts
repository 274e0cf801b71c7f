/**
 * Offline and restart, end to end (docs/agent.md): the service stops and restarts on
 * the same database; the agent process is dropped with records queued and a
 * new one on the same store delivers them.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { FakeClock } from '../fakes/fake-clock.js';
import { pump, readStates, until, useE2eHarness } from './support/harness.js';
import { expectedDoor, toggling } from './support/door.js';

describe('e2e: offline and restart', function () {
  this.timeout(60000);
  const h = useE2eHarness();

  it('delivers everything sampled while the service was down, in order, none twice', async () => {
    const clock = new FakeClock(Date.UTC(2026, 0, 1, 12));
    const t0 = clock.wallMs();
    const { port, url } = await h.startService(clock);
    const run = await h.startAgent(url, clock);
    run.pins.setSource(4, toggling);
    await pump(clock, run.agent, 3000);
    await h.stopService();
    await pump(clock, run.agent, 20000); // 20 s offline
    assert.ok(run.agent.counters.queued > 30, `queued ${run.agent.counters.queued}`);
    assert.equal(run.agent.online, false);
    const service = await h.startService(clock, port);
    await pump(clock, run.agent, 3000);
    await until(() => run.agent.counters.queued === 0 && run.agent.delivery === 'idle');
    const door = (await readStates(service.url, 'door.reported', t0 / 1000 - 1)).map(
      (s) => [s.value, Math.round(s.timestamp * 1000 - t0)] as [boolean, number],
    );
    const expected = expectedDoor(0, 26000);
    assert.deepEqual(door.slice(0, expected.length), expected);
    assert.equal(run.agent.counters.dropped, 0);
    run.stop();
  });

  it('with a small outbox bound, drops the oldest, counts them and keeps running', async () => {
    const clock = new FakeClock(Date.UTC(2026, 0, 1, 12));
    const t0 = clock.wallMs();
    const { port, url } = await h.startService(clock);
    const run = await h.startAgent(url, clock, {
      agent: {
        outbox: { maxRecords: 20 },
        batch: { maxRecords: 5, maxBytes: 16384, maxAgeMs: 1000 },
      },
    });
    run.pins.setSource(4, toggling);
    await pump(clock, run.agent, 2000);
    await h.stopService();
    await pump(clock, run.agent, 30000);
    const c = run.agent.counters;
    assert.ok(c.dropped > 0, 'some dropped');
    assert.ok(c.queued <= 20);
    const sampledOffline = c.sampled;
    const service = await h.startService(clock, port);
    await pump(clock, run.agent, 3000);
    await until(() => run.agent.counters.queued === 0 && run.agent.delivery === 'idle');
    assert.ok(run.agent.counters.sampled > sampledOffline, 'still sampling');
    const door = await readStates(service.url, 'door.reported', t0 / 1000 - 1);
    const offline = door.filter((s) => s.timestamp * 1000 - t0 >= 2000 && s.timestamp * 1000 - t0 < 32000);
    const all = expectedDoor(0, 35000).filter(([, t]) => t >= 2000 && t < 32000);
    assert.ok(offline.length < all.length, 'the oldest offline records are missing');
    const newest = all.slice(all.length - offline.length).map(([v, t]) => [v, t]);
    assert.deepEqual(
      offline.map((s) => [s.value, Math.round(s.timestamp * 1000 - t0)]),
      newest,
      'what remains is the newest, in order',
    );
    assert.ok(run.log.find('warn', 'outbox: full').length > 0);
    run.stop();
  });

  it('a new agent on the same store delivers what the dropped process had queued', async () => {
    const clock = new FakeClock(Date.UTC(2026, 0, 1, 12));
    const t0 = clock.wallMs();
    const store = join(h.dir, 'device');
    const { port, url } = await h.startService(clock);
    const first = await h.startAgent(url, clock, { storeDir: store });
    first.pins.setSource(4, toggling);
    await pump(clock, first.agent, 1000);
    await h.stopService();
    await pump(clock, first.agent, 6000);
    // Offline, closed batches reach the store within persistDelayMs (5 s): what
    // closed in the last 5 s before a power cut is lost (docs/agent.md).
    await pump(clock, first.agent, 5000);
    const queued = first.agent.counters.queued;
    assert.ok(queued >= 10, `queued ${queued}`);
    // The process dies here: no stop(); its FakeClock never advances again.
    const later = new FakeClock(clock.wallMs() + 10000);
    const service = await h.startService(later, port);
    const second = await h.startAgent(service.url, later, { storeDir: store });
    await pump(later, second.agent, 2000);
    await until(() => second.agent.counters.queued === 0 && second.agent.delivery === 'idle');
    const door = (await readStates(service.url, 'door.reported', t0 / 1000 - 1)).map((s) =>
      Math.round(s.timestamp * 1000 - t0),
    );
    // Batches closed more than persistDelayMs before the crash were persisted: everything up to 6000 ms.
    for (const [, t] of expectedDoor(0, 6000)) assert.ok(door.includes(t), `door change at ${t} ms delivered`);
    assert.equal(new Set(door).size, door.length, 'none twice');
    second.stop();
  });
});
