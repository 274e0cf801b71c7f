/**
 * Shared set-up of the hub client's unit tests: a FakeClock, a fake WebSocket
 * factory, a scripted negotiate transport and a recording logger, wired into a
 * HubClient with a deterministic backoff, and a HubInvoker over it.
 */
import { AgentError } from '../../../src/errors.js';
import type { HttpRequest, HttpResponse, HttpTransport } from '../../../src/ports.js';
import type { RetryPolicy } from '../../../src/retry/backoff.js';
import { HubClient } from '../../../src/signalr/hub-client.js';
import { HubInvoker, type HubInvokerOptions } from '../../../src/signalr/hub-invoker.js';
import type { HubClientOptions } from '../../../src/signalr/options.js';
import { FakeClock, settle } from '../../fakes/fake-clock.js';
import { FakeLogger } from '../../fakes/fake-logger.js';
import { FakeSocket, FakeWebSocketFactory } from '../../fakes/fake-websocket.js';

/** Hands the client's Invocations (target, arguments) to `receive`; returns the unsubscribe. */
export function invocations(
  client: HubClient,
  receive: (target: string, args: readonly unknown[]) => void,
): () => void {
  return client.listen((event) => {
    if (typeof event === 'object' && event.type === 1) receive(event.target, event.arguments);
  });
}

export type Answer = HttpResponse | AgentError | ((request: HttpRequest) => HttpResponse);

/** Answers negotiate from a script; when the script is empty, a fresh connection token each time. */
export class ScriptedHttp implements HttpTransport {
  readonly requests: HttpRequest[] = [];
  readonly script: Answer[] = [];
  private issued = 0;

  async request(request: HttpRequest): Promise<HttpResponse> {
    this.requests.push(request);
    const next = this.script.shift();
    if (next instanceof AgentError) throw next;
    if (typeof next === 'function') return next(request);
    if (next !== undefined) return next;
    return json(200, { negotiateVersion: 1, connectionId: 'c', connectionToken: `ct ${this.issued++}/x` });
  }
}

export function json(status: number, body: unknown): HttpResponse {
  return { status, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) };
}

/** Records the attempts asked for and answers a fixed delay. */
export class RecordingPolicy implements RetryPolicy {
  readonly attempts: number[] = [];
  constructor(readonly delayMs = 1000) {}
  nextDelayMs(attempt: number): number {
    this.attempts.push(attempt);
    return this.delayMs;
  }
}

export interface Harness {
  clock: FakeClock;
  sockets: FakeWebSocketFactory;
  http: ScriptedHttp;
  logger: FakeLogger;
  policy: RecordingPolicy;
  client: HubClient;
  invoker: HubInvoker;
  token: { value: string };
  /** Lets negotiate and the socket open run; returns the new socket (accepted when `accept`). */
  connect(accept?: boolean): Promise<FakeSocket>;
}

export function harness(
  overrides: Partial<HubClientOptions> = {},
  invokerOptions: Omit<HubInvokerOptions, 'clock'> = {},
): Harness {
  const clock = new FakeClock();
  const sockets = new FakeWebSocketFactory();
  const http = new ScriptedHttp();
  const logger = new FakeLogger();
  const policy = new RecordingPolicy();
  const token = { value: 'device-token-1' };
  const client = new HubClient({
    baseUrl: 'http://127.0.0.1:8080',
    accessToken: () => token.value,
    http,
    sockets,
    clock,
    logger,
    retry: policy,
    ...overrides,
  });
  const invoker = new HubInvoker(client, { clock, ...invokerOptions });
  const connect = async (accept = true): Promise<FakeSocket> => {
    const before = sockets.sockets.length;
    client.start();
    await settle();
    if (sockets.sockets.length === before) throw new Error('harness: no socket was opened');
    if (accept) sockets.last.accept();
    return sockets.last;
  };
  return { clock, sockets, http, logger, policy, client, invoker, token, connect };
}
