/**
 * The fleet's link to the service: one HTTP transport and one WebSocket
 * factory shared by every simulated device, each device seeing them through a
 * thin per-device view that meters what passes (requests per second by
 * endpoint, outcomes, hub connect attempts, open sockets, delivery latency from
 * a record's timestamp to the service's 2xx). `cut()` simulates an outage of
 * the service as the fleet sees it: every request fails at once with
 * AgentError `network`, every hub socket drops, and new sockets close as they
 * open, until `restore()`. The service itself stays up, so the scenario works
 * against any service, shared ones included.
 */
import { AgentError } from '../../src/errors.js';
import type {
  Clock,
  HttpRequest,
  HttpResponse,
  HttpTransport,
  WebSocketConnection,
  WebSocketFactory,
  WebSocketHandlers,
} from '../../src/ports.js';
import { Paths } from '../../src/wire.js';
import { LatencyHistogram, SecondSeries } from './meter.js';

/** What one device did on the link. */
export class DeviceMeter {
  readonly latency = new LatencyHistogram();
  /** Records in 2xx write answers (a record sent twice counts twice). */
  delivered = 0;
  requests = 0;
  failures = 0;
  /** Hub negotiate requests (connect attempts). */
  connectAttempts = 0;
  /** Hub sockets that opened. */
  socketsOpened = 0;
  openSockets = 0;

  constructor(readonly key: string) {}
}

/** Told of every write the service acknowledged, with its entries (already JSON-parsed). */
export type DeliveryListener = (device: DeviceMeter, entries: readonly unknown[], atWallMs: number) => void;

type Endpoint = 'states/write' | 'measurements/write' | 'negotiate' | 'other';

function endpointOf(url: string): Endpoint {
  const path = url.replace(/^[a-z]+:\/\/[^/]+/, '').replace(/\?.*$/s, '');
  if (path.endsWith(Paths.statesWrite)) return 'states/write';
  if (path.endsWith(Paths.measurementsWrite)) return 'measurements/write';
  if (path.endsWith(Paths.hubNegotiate)) return 'negotiate';
  return 'other';
}

function timestampMs(entry: unknown): number | undefined {
  const t = (entry as { timestamp?: unknown } | null)?.timestamp;
  if (typeof t === 'number') return t * 1000;
  if (typeof t === 'string') {
    const ms = Date.parse(t);
    return Number.isNaN(ms) ? undefined : ms;
  }
  return undefined;
}

/** `network ECONNRESET`, `timeout`, ...: the code and the reason, without host or path. */
function kindOf(e: unknown): string {
  if (!(e instanceof AgentError)) return 'network';
  const reason = /^no response from \S+: (.*)$/s.exec(e.message)?.[1];
  return reason === undefined ? e.code : `${e.code} ${reason.slice(0, 60)}`;
}

export class FleetLink {
  readonly requests: SecondSeries;
  readonly records: SecondSeries;
  readonly connectAttempts: SecondSeries;
  readonly latency = new LatencyHistogram();
  /** Outcomes that were not 2xx, by kind (`503 states/write`, `network`, ...). */
  readonly errors = new Map<string, number>();
  /** Answers 429 (a device's request budget spent) and 503 (the service full), every endpoint (decisions 10). */
  readonly refusals = { rateLimited: 0, unavailable: 0 };
  private down = false;
  private readonly sockets = new Set<{ connection: WebSocketConnection; handlers: WebSocketHandlers }>();
  private readonly listeners: DeliveryListener[] = [];

  constructor(
    private readonly http: HttpTransport,
    private readonly factory: WebSocketFactory,
    private readonly clock: Clock,
    readonly originMs: number,
    maxSeconds: number,
  ) {
    this.requests = new SecondSeries(originMs, maxSeconds);
    this.records = new SecondSeries(originMs, maxSeconds);
    this.connectAttempts = new SecondSeries(originMs, maxSeconds);
  }

  get isDown(): boolean {
    return this.down;
  }

  get openSockets(): number {
    return this.sockets.size;
  }

  onDelivered(listener: DeliveryListener): void {
    this.listeners.push(listener);
  }

  /** Starts a simulated outage: requests fail, hub sockets drop. */
  cut(): void {
    this.down = true;
    for (const s of [...this.sockets]) s.connection.close();
  }

  restore(): void {
    this.down = false;
  }

  private count(kind: string): void {
    this.errors.set(kind, (this.errors.get(kind) ?? 0) + 1);
  }

  /** The transport and socket factory one device uses. */
  forDevice(meter: DeviceMeter): { http: HttpTransport; sockets: WebSocketFactory } {
    return {
      http: { request: (request) => this.request(meter, request) },
      sockets: { connect: (url, headers, handlers) => this.connect(meter, url, headers, handlers) },
    };
  }

  private async request(meter: DeviceMeter, request: HttpRequest): Promise<HttpResponse> {
    const endpoint = endpointOf(request.url);
    const now = this.clock.monotonicMs();
    this.requests.add(now);
    meter.requests++;
    if (endpoint === 'negotiate') {
      meter.connectAttempts++;
      this.connectAttempts.add(now);
    }
    if (this.down) {
      meter.failures++;
      this.count('network (outage)');
      throw new AgentError('network', 'no response: the fleet link is cut (simulated outage)');
    }
    let response: HttpResponse;
    try {
      response = await this.http.request(request);
    } catch (e) {
      meter.failures++;
      this.count(kindOf(e));
      throw e;
    }
    if (response.status < 200 || response.status > 299) {
      meter.failures++;
      this.count(`${response.status} ${endpoint}`);
      if (response.status === 429) this.refusals.rateLimited++;
      if (response.status === 503) this.refusals.unavailable++;
    } else if ((endpoint === 'states/write' || endpoint === 'measurements/write') && request.body !== undefined) {
      this.delivered(meter, endpoint, request.body);
    }
    return response;
  }

  private delivered(meter: DeviceMeter, endpoint: Endpoint, body: string): void {
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch {
      this.count('unparsable write body');
      return;
    }
    const entries = (parsed as Record<string, unknown> | null)?.[
      endpoint === 'states/write' ? 'states' : 'measurements'
    ];
    if (!Array.isArray(entries)) return;
    const wall = this.clock.wallMs();
    for (const entry of entries) {
      const t = timestampMs(entry);
      if (t === undefined) continue;
      meter.latency.add(wall - t);
      this.latency.add(wall - t);
    }
    meter.delivered += entries.length;
    this.records.add(this.clock.monotonicMs(), entries.length);
    for (const listener of this.listeners) listener(meter, entries, wall);
  }

  private connect(
    meter: DeviceMeter,
    url: string,
    headers: Readonly<Record<string, string>>,
    handlers: WebSocketHandlers,
  ): WebSocketConnection {
    if (this.down) {
      // Asynchronously, as a real socket reports its failure.
      const timer = this.clock.setTimer(() => handlers.onClose('no connection: the fleet link is cut'), 0);
      return { send: () => undefined, close: () => this.clock.clearTimer(timer) };
    }
    const entry = { connection: undefined as unknown as WebSocketConnection, handlers };
    let open = false;
    entry.connection = this.factory.connect(url, headers, {
      onOpen: () => {
        open = true;
        meter.socketsOpened++;
        meter.openSockets++;
        handlers.onOpen();
      },
      onMessage: (data) => handlers.onMessage(data),
      onClose: (reason) => {
        this.sockets.delete(entry);
        if (open) meter.openSockets--;
        open = false;
        handlers.onClose(reason);
      },
    });
    this.sockets.add(entry);
    return entry.connection;
  }
}
