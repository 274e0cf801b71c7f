/**
 * Time from the service's return to the first delivered batch after a 60 s
 * outage. The agent and its hub client run on a FakeClock stepped by this
 * bench while the bytes travel over real loopback sockets: the outage is 60 s
 * of the agent's time (steps of 200 ms), then the service is started again on
 * the same port and the clock moves in steps of 20 ms (the figure's
 * resolution) until the outbox has delivered a batch. The hub reconnects with
 * its own full-jitter back-off and resyncs desired values; with retry-at-once
 * that successful request restarts delivery. The peer is the same agent
 * without those hooks (`client.onSuccess` removed, and the hub glue not told of
 * the reconnect, so no configuration re-read restarts delivery either): delivery
 * waits out its own back-off (full jitter, up to 60 s), as before.
 */
import { startService, type RunningService } from '../../host-sim/service/index.js';
import type { DesiredStateSink } from '../../src/agent/desired.js';
import { linkAgent } from '../../src/signalr/agent-hub.js';
import { FakeClock } from '../../test/fakes/fake-clock.js';
import { FakeLogger } from '../../test/fakes/fake-logger.js';
import { demo, demoFixture, FetchHttp } from '../../test/signalr/support/loopback.js';
import { demoAgent, demoHub } from './demo-device.js';

const realTick = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 1));

/** Advances `clock` by `totalMs` in steps, letting real I/O run between steps; stops early when `done()`. */
async function step(clock: FakeClock, totalMs: number, stepMs: number, done = (): boolean => false): Promise<number> {
  for (let t = 0; t < totalMs; t += stepMs) {
    if (done()) return t;
    clock.advance(stepMs);
    await realTick();
  }
  return totalMs;
}

function serve(port = 0): Promise<RunningService> {
  // Pings every 200 ms of real time keep the hub client's server timeout (on the stepped clock) satisfied.
  return startService({ fixture: demoFixture, port, hub: { pingIntervalMs: 200 } });
}

/** One trial: ms of agent time from the service's return to the first delivered batch. */
export async function outageTrial(retryAtOnce: boolean, outageMs = 60000): Promise<number> {
  let service = await serve();
  const clock = new FakeClock(Date.now());
  const logger = new FakeLogger();
  const http = new FetchHttp();
  const context = { serviceUrl: service.url, clock, http, logger };
  const agent = demoAgent(context);
  if (!retryAtOnce) agent.client.onSuccess = undefined;
  await agent.start();
  const hub = demoHub(context);
  const sink: DesiredStateSink = retryAtOnce
    ? agent
    : {
        applyDesired: (record) => agent.applyDesired(record),
        resyncDesired: () => agent.resyncDesired(),
        updateProperties: (values, replace) => agent.updateProperties(values, replace),
      };
  const link = linkAgent(hub, sink, logger, { deviceUid: demo.device });
  let connected = false;
  hub.listen((kind) => (connected = kind === 'connected'));
  hub.start();
  await step(clock, 10000, 20, () => connected);
  await step(clock, 2000, 20); // records flowing
  const port = service.port;
  await service.close();
  await step(clock, outageMs, 200);
  service = await serve(port);
  const sent = agent.counters.sent;
  const elapsed = await step(clock, 180000, 20, () => agent.counters.sent > sent);
  hub.stop();
  link.close();
  agent.stop();
  await service.close();
  return elapsed;
}
