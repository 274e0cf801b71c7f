/**
 * A small browser client of the hub `properties` over the JSON hub protocol
 * (spec 4.8): negotiate, open the WebSocket with the connection token in `id`
 * and the access token in `access_token` (browsers cannot set headers on a
 * WebSocket), handshake, answer pings, watch the server's silence, and
 * reconnect for ever with a capped back-off. `observe=1` asks the service for
 * the `.reported` states and measurements too (docs/dashboard.md).
 * One state union, changed only in `setStatus`.
 */
import { Hub, HubMessageType as T, Paths } from '../../../src/wire.js';
import { isObject } from './api.js';

export type HubStatus = 'connecting' | 'connected' | 'reconnecting' | 'closed';

export interface HubClientOptions {
  token: string;
  onNotify(argument: unknown): void;
  onStatus(status: HubStatus): void;
  /** Silence after which the connection is given up and reopened. */
  serverTimeoutMs?: number;
  keepAliveMs?: number;
}

/** Delays before reconnect attempts 1, 2, ...; the last repeats. */
const backoffMs = [0, 1000, 2000, 5000, 10000];
const RS = Hub.recordSeparatorChar;

export class HubClient {
  private status: HubStatus = 'closed';
  private ws: WebSocket | undefined;
  private attempt = 0;
  private retryTimer: number | undefined;
  private pingTimer: number | undefined;
  private silenceTimer: number | undefined;
  private stopped = false;

  constructor(private readonly o: HubClientOptions) {}

  get current(): HubStatus {
    return this.status;
  }

  start(): void {
    this.stopped = false;
    this.setStatus('connecting');
    void this.open();
  }

  stop(): void {
    this.stopped = true;
    window.clearTimeout(this.retryTimer);
    this.teardown();
    this.setStatus('closed');
  }

  private setStatus(next: HubStatus): void {
    if (next === this.status) return;
    this.status = next;
    try {
      this.o.onStatus(next);
    } catch (e) {
      console.error('hub status handler failed', e);
    }
  }

  private async open(): Promise<void> {
    try {
      const res = await fetch(`${Paths.hubNegotiate}?negotiateVersion=1`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${this.o.token}` },
      });
      if (!res.ok) throw new Error(`negotiate: ${res.status}`);
      const body: unknown = await res.json();
      const id = isObject(body) ? body['connectionToken'] : undefined;
      if (typeof id !== 'string') throw new Error('negotiate: no connectionToken');
      if (this.stopped) return;
      const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
      const q = new URLSearchParams({ id, access_token: this.o.token, observe: '1' });
      const ws = new WebSocket(`${scheme}//${location.host}${Paths.hub}?${q.toString()}`);
      this.ws = ws;
      ws.onopen = () => ws.send(JSON.stringify({ protocol: 'json', version: 1 }) + RS);
      ws.onmessage = (e) => this.receive(typeof e.data === 'string' ? e.data : '');
      ws.onclose = () => this.lost();
      ws.onerror = () => ws.close();
    } catch {
      this.lost();
    }
  }

  private receive(text: string): void {
    this.armSilence();
    for (const record of text.split(RS)) {
      if (record === '') continue;
      let m: unknown;
      try {
        m = JSON.parse(record);
      } catch {
        continue;
      }
      if (!isObject(m)) continue;
      if (m['type'] === undefined) {
        // The handshake answer: `{}`, or `{ error }`.
        if (typeof m['error'] === 'string') this.ws?.close();
        else this.opened();
      } else if (m['type'] === T.ping) {
        // Our keep-alive timer answers; nothing else to do.
      } else if (m['type'] === T.invocation && m['target'] === Hub.notify && Array.isArray(m['arguments'])) {
        for (const a of m['arguments'] as unknown[]) {
          try {
            this.o.onNotify(a);
          } catch (e) {
            console.error('Notify handler failed', e);
          }
        }
      } else if (m['type'] === T.close) {
        this.ws?.close();
      }
    }
  }

  private opened(): void {
    this.attempt = 0;
    this.pingTimer = window.setInterval(
      () => this.ws?.send(JSON.stringify({ type: T.ping }) + RS),
      this.o.keepAliveMs ?? 15000,
    );
    this.setStatus('connected');
  }

  private armSilence(): void {
    window.clearTimeout(this.silenceTimer);
    this.silenceTimer = window.setTimeout(() => this.ws?.close(), this.o.serverTimeoutMs ?? 40000);
  }

  private teardown(): void {
    window.clearInterval(this.pingTimer);
    window.clearTimeout(this.silenceTimer);
    const ws = this.ws;
    this.ws = undefined;
    if (ws) {
      ws.onclose = null;
      ws.onmessage = null;
      ws.close();
    }
  }

  private lost(): void {
    this.teardown();
    if (this.stopped) return;
    this.setStatus('reconnecting');
    const delay = backoffMs[Math.min(this.attempt, backoffMs.length - 1)] ?? 10000;
    this.attempt++;
    window.clearTimeout(this.retryTimer);
    this.retryTimer = window.setTimeout(() => void this.open(), delay * (0.5 + Math.random() / 2));
  }
}
