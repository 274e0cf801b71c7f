/**
 * Set-up of the hub client's loopback tests on Node: the local service on port
 * 0, an HttpTransport over fetch, the Node WebSocket adapter, and a FakeClock
 * for the client's own timers (keep-alive, timeouts, backoff), so timing is
 * driven by the test while the bytes travel over real sockets.
 */
import { AgentError } from '../../../src/errors.js';
import type { HttpRequest, HttpResponse, HttpTransport } from '../../../src/ports.js';
import type { RetryPolicy } from '../../../src/retry/backoff.js';
import { HubClient, type HubStateKind } from '../../../src/signalr/hub-client.js';
import type { HubClientOptions } from '../../../src/signalr/options.js';
import { NodeWebSocketFactory } from '../../../targets/node/websocket.js';
import { FakeClock } from '../../fakes/fake-clock.js';
import { FakeLogger } from '../../fakes/fake-logger.js';

export { demoFixturePath as demoFixture } from '../../../host-sim/service/fixture.js';
export const demo = {
  product: '6f1c2a34-0d8e-4b7a-9c51-2e3f4a5b6c01',
  device: 'a0d5e6f7-4152-4d8e-9f90-000000000e01',
  deviceKey: 'demo-001',
  token: 'device-token-demo-001',
  admin: 'admin-token-demo',
} as const;

/** A minimal HttpTransport over the global fetch (tests only; the Node target has its own). */
export class FetchHttp implements HttpTransport {
  async request(request: HttpRequest): Promise<HttpResponse> {
    try {
      const init: RequestInit = { method: request.method, headers: request.headers };
      if (request.method === 'POST') init.body = request.body ?? '';
      const response = await fetch(request.url, init);
      const headers: Record<string, string> = {};
      response.headers.forEach((value, name) => (headers[name] = value));
      return { status: response.status, headers, body: await response.text() };
    } catch (e) {
      throw new AgentError('network', `fetch ${request.method} failed`, { cause: e });
    }
  }
}

/** Writes states over HTTP with a token (the way an operator sets `.desired`). */
export async function writeStates(baseUrl: string, token: string, device: string, states: unknown[]): Promise<void> {
  const response = await fetch(`${baseUrl}/api/v1/states/write`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ device, states }),
  });
  if (response.status !== 200) throw new Error(`states/write: HTTP ${response.status} ${await response.text()}`);
}

export class FixedDelay implements RetryPolicy {
  nextDelayMs(): number {
    return 1000;
  }
}

export interface LoopbackClient {
  client: HubClient;
  clock: FakeClock;
  logger: FakeLogger;
  token: { value: string };
  /** Resolves when the client next enters `kind` (at once when it is there already). */
  until(kind: HubStateKind): Promise<void>;
}

export function loopbackClient(baseUrl: string, overrides: Partial<HubClientOptions> = {}): LoopbackClient {
  const clock = new FakeClock();
  const logger = new FakeLogger();
  const token = { value: demo.token as string };
  const client = new HubClient({
    baseUrl,
    accessToken: () => token.value,
    http: new FetchHttp(),
    sockets: new NodeWebSocketFactory(),
    clock,
    logger,
    retry: new FixedDelay(),
    ...overrides,
  });
  const until = (kind: HubStateKind): Promise<void> =>
    new Promise((resolve) => {
      if (client.status === kind) return resolve();
      const off = client.listen((next) => {
        if (next !== kind) return;
        off();
        resolve();
      });
    });
  return { client, clock, logger, token, until };
}

/** Resolves with the next value `register` delivers. */
export function next<T>(register: (deliver: (value: T) => void) => void): Promise<T> {
  return new Promise((resolve) => register(resolve));
}
