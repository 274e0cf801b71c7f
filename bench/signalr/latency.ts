/**
 * Latency of the whole desired path on loopback: an HTTP `.desired` write to
 * the local service → hub Notify → HubClient → linkAgent → Agent → the
 * simulated pin write. Also records every WebSocket message the client
 * received, as the transcript for the codec comparison.
 */
import { startService } from '../../host-sim/service/index.js';
import { Agent } from '../../src/agent/agent.js';
import { PinChannelProvider } from '../../src/pins/provider.js';
import type { WebSocketFactory } from '../../src/ports.js';
import { linkAgent } from '../../src/signalr/agent-hub.js';
import { HubClient } from '../../src/signalr/hub-client.js';
import { HubInvoker } from '../../src/signalr/hub-invoker.js';
import { setProperties } from '../../src/signalr/properties.js';
import { NodeWebSocketFactory } from '../../targets/node/websocket.js';
import { FakeClock } from '../../test/fakes/fake-clock.js';
import { FakeLogger } from '../../test/fakes/fake-logger.js';
import { FakeStore } from '../../test/fakes/fake-store.js';
import { demo, demoFixture, FetchHttp } from '../../test/signalr/support/loopback.js';
import { WatchedPins } from '../../test/signalr/support/watched-pins.js';
import { percentile } from '../stats.js';

export interface LatencyResult {
  samples: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  /** Every text message the hub client received, in order. */
  transcript: string[];
}

const handshakeAnswer = '{}\u001e';

/** A WebSocketFactory that records every received message but the handshake answer. */
function recording(inner: WebSocketFactory, transcript: string[]): WebSocketFactory {
  return {
    connect: (url, headers, handlers) =>
      inner.connect(url, headers, {
        ...handlers,
        onMessage: (data) => {
          // The handshake answer is not a hub message (the official client parses it apart).
          if (data !== handshakeAnswer) transcript.push(data);
          handlers.onMessage(data);
        },
      }),
  };
}

export async function measureLatency(samples: number): Promise<LatencyResult> {
  const service = await startService({ fixture: demoFixture });
  const pins = new WatchedPins();
  const logger = new FakeLogger();
  const http = new FetchHttp();
  const agent = new Agent({
    clock: new FakeClock(Date.now()),
    http,
    store: new FakeStore(),
    logger,
    service: { baseUrl: service.url, device: demo.deviceKey, token: demo.token },
    providers: [new PinChannelProvider(pins)],
  });
  await agent.start();
  const transcript: string[] = [];
  const clock = new FakeClock();
  const client = new HubClient({
    baseUrl: service.url,
    accessToken: () => demo.token,
    http,
    sockets: recording(new NodeWebSocketFactory(), transcript),
    clock,
    logger,
  });
  const link = linkAgent(client, agent, logger, { deviceUid: demo.device });
  const invoker = new HubInvoker(client, { clock });
  const connected = new Promise<void>((resolve) => client.listen((k) => k === 'connected' && resolve()));
  client.start();
  await connected;
  await link.idle();

  const latencies: number[] = [];
  const headers = { Authorization: `Bearer ${demo.admin}`, 'Content-Type': 'application/json' };
  for (let i = 0; i < samples; i++) {
    const written = pins.untilWrites(18, i + 1);
    const started = performance.now();
    // Two channels per write: the transcript then holds multi-record Notify messages too.
    const body = JSON.stringify({
      device: demo.deviceKey,
      states: [
        { channel: 'dimmer.desired', value: (i % 100) + 0.5 },
        { channel: 'relay.desired', value: i % 2 === 0 },
      ],
    });
    const response = await fetch(`${service.url}/api/v1/states/write`, { method: 'POST', headers, body });
    await response.arrayBuffer();
    await written;
    latencies.push(performance.now() - started);
    if (i % 10 === 0) await setProperties(invoker, agent, { 'sample-rate': i });
  }
  client.stop();
  link.close();
  agent.stop();
  await service.close();
  latencies.sort((a, b) => a - b);
  return {
    samples,
    p50Ms: percentile(latencies, 50),
    p99Ms: percentile(latencies, 99),
    maxMs: latencies[latencies.length - 1] ?? NaN,
    transcript,
  };
}
