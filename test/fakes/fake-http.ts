/**
 * A fake HttpTransport with a tiny in-memory service behind it: it answers
 * `channels/list`, `devices/get`, `properties/get` and `states/read/last` from
 * what a test sets, records every `states/write` and `measurements/write`
 * entry, and can go offline (network error) or answer a chosen status. With
 * `refuseUnknown`, it refuses (400, whole request) a write naming a channel
 * that `channels` does not list, as the local service does.
 * Portable: no URL class, no Node.
 */
import { AgentError } from '../../src/errors.js';
import type { HttpRequest, HttpResponse, HttpTransport } from '../../src/ports.js';
import { Paths } from '../../src/wire.js';

export interface WrittenRecord {
  channel?: string;
  metric?: string;
  value?: unknown;
  error?: number;
  timestamp: number;
}

export class FakeHttp implements HttpTransport {
  readonly requests: HttpRequest[] = [];
  readonly states: WrittenRecord[] = [];
  readonly measurements: WrittenRecord[] = [];
  /** Bodies answered per path (GET). */
  channels: unknown = { buses: [], channels: [] };
  device: unknown = { uid: 'dev-uid', key: 'dev', name: 'Device', enabled: true };
  properties: unknown = {};
  desired: unknown = [];
  /** When set, every request fails with a network error. */
  offline = false;
  /** When set, every write answers this status (e.g. 500, 401). */
  writeStatus: number | undefined;
  /** When set, every read (GET) answers this status (401: a refused token, 404: an unknown device). */
  readStatus: number | undefined;
  /** Refuse (400) a write whose records name a channel key that `channels` does not list. */
  refuseUnknown = false;
  /** Write requests refused because of `refuseUnknown` or `refuseRecord`. */
  refused = 0;
  /** Refuse (400, whole request) a write holding a record this predicate picks, as a service refuses one bad entry. */
  refuseRecord: ((record: WrittenRecord) => boolean) | undefined;
  /** The `Date` header to send, if any. */
  date: string | undefined;
  /** When set, requests to these paths answer `status` (429, 503) with this `Retry-After` header. */
  busy: { status: number; retryAfter: string; paths: readonly string[] } | undefined;
  /** Requests answered by `busy`. */
  busyAnswers = 0;
  /** Requests waiting for `release()` when `hold` is set. */
  hold = false;
  private held: Array<() => void> = [];

  async request(request: HttpRequest): Promise<HttpResponse> {
    this.requests.push(request);
    if (this.hold) await new Promise<void>((resolve) => this.held.push(resolve));
    if (this.offline) throw new AgentError('network', 'fake: connection refused');
    const path = request.url.replace(/^[a-z]+:\/\/[^/]+/, '').split('?')[0] ?? '';
    const headers: Record<string, string> = this.date === undefined ? {} : { date: this.date };
    const ok = (body: unknown): HttpResponse => ({ status: 200, headers, body: JSON.stringify(body) });
    if (this.busy !== undefined && this.busy.paths.includes(path)) {
      this.busyAnswers++;
      const { status, retryAfter } = this.busy;
      return { status, headers: { ...headers, 'retry-after': retryAfter }, body: JSON.stringify({ status }) };
    }
    if (request.method === 'POST' && (path === Paths.statesWrite || path === Paths.measurementsWrite)) {
      if (this.writeStatus !== undefined) {
        return { status: this.writeStatus, headers, body: JSON.stringify({ status: this.writeStatus, title: 'fake' }) };
      }
      const body = JSON.parse(request.body ?? '{}') as { states?: WrittenRecord[]; measurements?: WrittenRecord[] };
      const bad = this.refuseRecord;
      if (bad !== undefined && [...(body.states ?? []), ...(body.measurements ?? [])].some((r) => bad(r))) {
        this.refused++;
        return {
          status: 400,
          headers,
          body: JSON.stringify({ status: 400, title: 'Bad Request', detail: 'bad entry' }),
        };
      }
      const unknown = this.refuseUnknown ? this.firstUnknown(body.states ?? [], body.measurements ?? []) : undefined;
      if (unknown !== undefined) {
        this.refused++;
        const problem = { status: 400, title: 'Bad Request', detail: `unknown channel "${unknown}"` };
        return { status: 400, headers, body: JSON.stringify(problem) };
      }
      if (body.states !== undefined) this.states.push(...body.states);
      if (body.measurements !== undefined) this.measurements.push(...body.measurements);
      return ok({});
    }
    if (this.readStatus !== undefined) {
      const problem = { status: this.readStatus, title: 'fake', detail: `fake ${this.readStatus}` };
      return { status: this.readStatus, headers, body: JSON.stringify(problem) };
    }
    switch (path) {
      case Paths.channelsList:
        return ok(this.channels);
      case Paths.devicesGet:
        return ok(this.device);
      case Paths.propertiesGet:
        return ok(this.properties);
      case Paths.statesReadLast:
        return ok(this.desired);
      default:
        return { status: 404, headers, body: '{"status":404,"title":"Not Found"}' };
    }
  }

  private firstUnknown(states: WrittenRecord[], measurements: WrittenRecord[]): string | undefined {
    const list = (this.channels as { channels?: Array<{ key?: unknown }> }).channels ?? [];
    const keys = new Set(list.map((c) => c.key));
    for (const s of states) {
      const key = (s.channel ?? '').split('.')[0];
      if (!keys.has(key)) return s.channel;
    }
    for (const m of measurements) if (!keys.has(m.metric)) return m.metric;
    return undefined;
  }

  /** Lets held requests continue. */
  release(): void {
    const held = this.held;
    this.held = [];
    for (const resolve of held) resolve();
  }

  /** Written states of one channel (name with `.reported`), in order. */
  statesOf(channel: string): WrittenRecord[] {
    return this.states.filter((s) => s.channel === channel);
  }

  /** Number of write requests received. */
  get writeRequests(): number {
    return this.requests.filter((r) => r.method === 'POST').length;
  }
}
