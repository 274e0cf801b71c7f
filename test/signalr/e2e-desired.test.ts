/**
 * End to end (docs/realtime.md): a `.desired` written over HTTP to the local service
 * reaches the agent through the hub, drives a simulated output, and the
 * `.reported` echo arrives at the service; the same when the desired value was
 * written while the device was disconnected (the reconnect's resync finds it).
 */
import assert from 'node:assert/strict';
import type { RunningService } from '../../host-sim/service/index.js';
import { Agent } from '../../src/agent/agent.js';
import { PinChannelProvider } from '../../src/pins/provider.js';
import { FakeClock } from '../fakes/fake-clock.js';
import { FakeLogger } from '../fakes/fake-logger.js';
import { FakeStore } from '../fakes/fake-store.js';
import { useHubSession } from './support/hub-session.js';
import { demo, FetchHttp, writeStates } from './support/loopback.js';
import { WatchedPins } from './support/watched-pins.js';

/** Reads `<key>.reported` from read/last until it has `expected` (bounded; yields between reads). */
async function reported(service: RunningService, key: string, expected: (v: unknown) => boolean): Promise<unknown> {
  let last: unknown;
  for (let i = 0; i < 500; i++) {
    const response = await fetch(
      `${service.url}/api/v1/states/read/last?device=${demo.deviceKey}&channels=${key}.reported`,
      { headers: { Authorization: `Bearer ${demo.admin}` } },
    );
    const records = (await response.json()) as { value?: unknown }[];
    last = records[0]?.value;
    if (expected(last)) return last;
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  assert.fail(`${key}.reported never matched; last value ${JSON.stringify(last)}`);
}

describe('signalr end to end: HTTP .desired → hub → agent → output → .reported', () => {
  let pins: WatchedPins;
  let agentLogger: FakeLogger;
  const h = useHubSession({
    sink: async (service) => {
      pins = new WatchedPins();
      agentLogger = new FakeLogger();
      const agent = new Agent({
        clock: new FakeClock(Date.now()),
        http: new FetchHttp(),
        store: new FakeStore(),
        logger: agentLogger,
        service: { baseUrl: service.url, device: demo.deviceKey, token: demo.token },
        providers: [new PinChannelProvider(pins)],
      });
      await agent.start();
      return agent;
    },
    connect: true,
    closeSink: (agent) => agent.stop(),
    assertNoErrors: true,
  });

  beforeEach(() => h.link.idle());
  afterEach(() => agentLogger.assertNoErrors());

  it('drives the relay and the dimmer, and echoes .reported', async () => {
    await writeStates(h.service.url, demo.admin, demo.deviceKey, [{ channel: 'relay.desired', value: true }]);
    await pins.untilWrites(5);
    assert.deepEqual(pins.writes.at(-1), { pin: 5, value: true });
    await writeStates(h.service.url, demo.admin, demo.deviceKey, [{ channel: 'dimmer.desired', value: 50 }]);
    await pins.untilWrites(18);
    assert.equal(pins.writes.at(-1)?.pin, 18);
    h.sink.flush();
    assert.equal(await reported(h.service, 'relay', (v) => v === true), true);
    const dimmer = await reported(h.service, 'dimmer', (v) => typeof v === 'number');
    assert.ok(Math.abs((dimmer as number) - 50) < 0.1, `dimmer.reported ${String(dimmer)}`);
  });

  it('applies a .desired written while the device was disconnected, once, on reconnect', async () => {
    await writeStates(h.service.url, demo.admin, demo.deviceKey, [{ channel: 'relay.desired', value: true }]);
    await pins.untilWrites(5);
    h.service.hub.dropAll();
    await h.c.until('waiting');
    await writeStates(h.service.url, demo.admin, demo.deviceKey, [{ channel: 'dimmer.desired', value: 25 }]);
    assert.equal(pins.writes.filter((w) => w.pin === 18).length, 0);
    const connected = h.c.until('connected');
    h.c.clock.advance(1000);
    await connected;
    await pins.untilWrites(18);
    await h.link.idle();
    assert.equal(pins.writes.filter((w) => w.pin === 5).length, 1, 'the relay desired is not applied twice');
    h.sink.flush();
    const dimmer = await reported(h.service, 'dimmer', (v) => typeof v === 'number');
    assert.ok(Math.abs((dimmer as number) - 25) < 0.1, `dimmer.reported ${String(dimmer)}`);
  });
});
