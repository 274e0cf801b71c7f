/**
 * The configuration follows the service, end to end: while the agent runs, the
 * local service is restarted on the same database with another fixture, once
 * with a channel removed (battery) and one changed (temperature), then with a
 * channel added (window). No record of an unchanged channel (door) is lost;
 * the removed channel's queued records are counted as rejected, one warn line
 * per refusal; the changed channel follows its new settings; the added one
 * reports within one refresh period, found by the periodic refresh alone.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadFixture, type Fixture } from '../../host-sim/service/index.js';
import { FakeClock } from '../fakes/fake-clock.js';
import { demoFixture, pump, readStates, until, useE2eHarness } from './support/harness.js';
import { expectedDoor } from './support/door.js';

/**
 * The door toggles every 500 ms; it is scanned every 200 ms and reports each change. It is a
 * scenario signal because the simulated device drives its inputs afresh with each configuration.
 */
const scenario = { channels: { door: { kind: 'toggle', periodMs: 500 }, window: { kind: 'constant', value: true } } };
type Channels = Fixture['products'][number]['channels'];

/** The demo fixture with its product's channel list passed through `edit`. */
function demoWith(edit: (channels: Channels) => Channels): Fixture {
  const fixture = loadFixture(demoFixture);
  const product = fixture.products[0]!;
  return { ...fixture, products: [{ ...product, channels: edit(product.channels) }, ...fixture.products.slice(1)] };
}

/** Battery removed; temperature reports every scan, every 500 ms. */
const withoutBattery = (channels: Channels): Channels =>
  channels
    .filter((c) => c['key'] !== 'battery')
    .map((c) => (c['key'] === 'temperature' ? { ...c, scanInterval: 500, transmitEvents: [] } : c));

const window = {
  uid: 'a0d5e6f7-0000-4000-8000-00000000c0de',
  key: 'window',
  name: 'Window',
  type: 'digitalInput',
  pin: 13,
  scanInterval: 200,
  transmitEvents: [{ type: 'change' }],
};

const refreshMs = 20000;

describe('e2e: the configuration follows the service', function () {
  this.timeout(60000);
  const h = useE2eHarness();

  it('a channel removed, changed and added on the service while the agent runs', async () => {
    const clock = new FakeClock(Date.UTC(2026, 0, 1, 12));
    const t0 = clock.wallMs();
    const { port, url } = await h.startService(clock);
    // random 0: every refresh waits 0.75 x the period (15 s), so the test knows when it comes.
    const scenarioFile = join(h.dir, 'scenario.json');
    writeFileSync(scenarioFile, JSON.stringify(scenario));
    const run = await h.startAgent(url, clock, {
      args: ['--scenario', scenarioFile],
      agent: { configRefreshMs: refreshMs, random: () => 0 },
    });
    try {
      await pump(clock, run.agent, 6000);
      assert.ok(run.agent.channelKeys.includes('battery'));

      // The service goes away and comes back without battery; temperature now reports every 500 ms.
      await h.stopService();
      await pump(clock, run.agent, 5000); // offline: battery records queue with the others
      const removedAt = clock.wallMs() - t0;
      const second = demoWith(withoutBattery);
      let service = await h.startService(clock, port, second);
      await pump(clock, run.agent, 5000);
      await until(() => run.agent.counters.queued === 0 && run.agent.delivery === 'idle');
      assert.ok(!run.agent.channelKeys.includes('battery'), 'the refusal re-read the configuration');
      const c = run.agent.counters;
      assert.ok(c.rejected >= 1, `battery records rejected: ${c.rejected}`);
      const warned = run.log.find('warn', 'channel gone');
      assert.ok(warned.length >= 1);
      assert.ok(
        warned.every((l) => l.fields?.['key'] === 'battery'),
        'only battery records were dropped',
      );
      const counted = warned.reduce((n, l) => n + Number(l.fields?.['records']), 0);
      assert.equal(counted, c.rejected, 'every rejected record is in a warn line');
      assert.equal(run.log.find('error', 'batch refused').length, 0, 'no batch dropped whole');

      // Later, window is added (a change no refusal reveals: only the periodic refresh finds it).
      const third = demoWith((channels) => [...withoutBattery(channels), window]);
      await h.stopService();
      const addedAt = clock.wallMs() - t0;
      service = await h.startService(clock, port, third);
      await pump(clock, run.agent, refreshMs + 2000);
      await until(() => run.agent.counters.queued === 0 && run.agent.delivery === 'idle');
      const endMs = clock.wallMs() - t0;

      const windowStates = await readStates(service.url, 'window.reported', t0 / 1000 - 1);
      assert.ok(windowStates.length > 0, 'the added channel reports');
      const firstWindowMs = Math.round(windowStates[0]!.timestamp * 1000 - t0);
      assert.ok(firstWindowMs - addedAt <= refreshMs, `window first reported ${firstWindowMs - addedAt} ms after`);

      const door = (await readStates(service.url, 'door.reported', t0 / 1000 - 1)).map(
        (s) => [s.value, Math.round(s.timestamp * 1000 - t0)] as [boolean, number],
      );
      const expected = expectedDoor(0, endMs - 1200); // the open batch of the last second may still be in memory
      assert.deepEqual(door.slice(0, expected.length), expected, 'no door record lost across both changes');

      const temperature = (await readStates(service.url, 'temperature.reported', t0 / 1000 - 1)).map((s) =>
        Math.round(s.timestamp * 1000 - t0),
      );
      const before = temperature.filter((t) => t < removedAt);
      assert.ok(
        before.every((t, i) => i === 0 || t - before[i - 1]! >= 1000),
        'before: delta or 60 s interval',
      );
      // The service is back 0 to 1 s after removedAt; from then on, every 500 ms (through the addition too).
      const after = temperature.filter((t) => t >= removedAt + 1000);
      assert.ok(after.length >= 40, `temperature every 500 ms after the change (${after.length} records)`);
      assert.ok(
        after.every((t, i) => i === 0 || t - after[i - 1]! === 500),
        'every 500 ms',
      );
      assert.equal(run.agent.counters.dropped, 0);
    } finally {
      run.stop();
    }
  });
});
