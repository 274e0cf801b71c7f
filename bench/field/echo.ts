/**
 * Desired-to-echo latency at the service, on loopback, in real time: an admin
 * writes `relay.desired` over HTTP; the local service pushes Notify over the
 * hub; the agent drives the pin and echoes `relay.reported`; the figure ends
 * when the service has answered the agent's `states/write` carrying that echo
 * (it is stored and readable from then on). The agent runs on the Node clock,
 * so the batch timer is real. `prompt: false` is the peer: the echo waits for
 * the 1 s batch timer like any record (the behaviour before prompt delivery).
 */
import { startService } from '../../host-sim/service/index.js';
import type { HttpRequest, HttpResponse, HttpTransport } from '../../src/ports.js';
import { linkAgent } from '../../src/signalr/agent-hub.js';
import { NodeClock } from '../../targets/node/clock.js';
import { FakeLogger } from '../../test/fakes/fake-logger.js';
import { demo, demoFixture, FetchHttp } from '../../test/signalr/support/loopback.js';
import { percentile } from '../stats.js';
import { demoAgent, demoHub } from './demo-device.js';

export interface EchoResult {
  samples: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

/** An HttpTransport that tells a waiter when a states/write carrying `needle` has been answered 2xx. */
class WatchingHttp implements HttpTransport {
  private readonly inner = new FetchHttp();
  private waiter: { needle: string; resolve: () => void } | undefined;

  until(needle: string): Promise<void> {
    return new Promise((resolve) => (this.waiter = { needle, resolve }));
  }

  async request(request: HttpRequest): Promise<HttpResponse> {
    const response = await this.inner.request(request);
    const w = this.waiter;
    if (w !== undefined && response.status < 300 && request.body?.includes(w.needle) === true) {
      this.waiter = undefined;
      w.resolve();
    }
    return response;
  }
}

export async function measureEcho(samples: number, prompt: boolean): Promise<EchoResult> {
  const service = await startService({ fixture: demoFixture });
  const clock = new NodeClock();
  const logger = new FakeLogger();
  const http = new WatchingHttp();
  const context = { serviceUrl: service.url, clock, http, logger };
  const agent = demoAgent(context, { batch: { prompt } });
  await agent.start();
  const client = demoHub({ ...context, http: new FetchHttp() });
  const link = linkAgent(client, agent, logger, { deviceUid: demo.device });
  const connected = new Promise<void>((resolve) => client.listen((k) => k === 'connected' && resolve()));
  client.start();
  await connected;
  await link.idle();
  const headers = { Authorization: `Bearer ${demo.admin}`, 'Content-Type': 'application/json' };
  const latencies: number[] = [];
  for (let i = 0; i < samples; i++) {
    const value = i % 2 === 0;
    const echoed = http.until(`"channel":"relay.reported","value":${String(value)}`);
    const started = performance.now();
    const body = JSON.stringify({ device: demo.deviceKey, states: [{ channel: 'relay.desired', value }] });
    const response = await fetch(`${service.url}/api/v1/states/write`, { method: 'POST', headers, body });
    await response.arrayBuffer();
    await echoed;
    latencies.push(performance.now() - started);
  }
  client.stop();
  link.close();
  agent.stop();
  await service.close();
  latencies.sort((a, b) => a - b);
  const round = (ms: number): number => Math.round(ms * 100) / 100;
  return {
    samples,
    p50Ms: round(percentile(latencies, 50)),
    p99Ms: round(percentile(latencies, 99)),
    maxMs: round(latencies[latencies.length - 1] ?? NaN),
  };
}
