/**
 * One opened hub WebSocket, mechanism only: opens it with the Authorization
 * header, sends the handshake, splits incoming text into records, and runs ONE
 * timer: the deadline of the handshake answer, then the keep-alive (spec 4.8
 * Ping: a Ping when nothing was sent for `pingIntervalMs`, counted from the last
 * send; the server gone after `serverTimeoutMs` without receiving anything).
 * The timer re-arms itself for the remaining time, so a send or receive costs a
 * clock read, not a new timer. Reports exactly one end. What the records mean,
 * and the state, belong to HubClient.
 */
import { AgentError, toAgentError } from '../errors.js';
import type { TimerHandle, WebSocketConnection } from '../ports.js';
import { handshakeRecord, pingRecord } from './messages.js';
import type { ResolvedHubOptions } from './options.js';
import { RecordDecoder } from './record-codec.js';

export interface HubConnectionEvents {
  /** One record's text, separator removed; the first one is the handshake answer. */
  onRecord(text: string): void;
  /** Called exactly once; nothing is reported after it. */
  onEnd(error: AgentError, reconnect: boolean): void;
}

export class HubConnection {
  #socket: WebSocketConnection | undefined;
  readonly #decoder: RecordDecoder;
  #timer: TimerHandle | undefined;
  #sentMs = 0;
  #receivedMs = 0;
  /** False until the handshake is accepted: the timer is then its deadline. */
  #handshaken = false;
  /** Cleared by the first end, after which every socket event is dropped. */
  #events: HubConnectionEvents | undefined;
  readonly #o: ResolvedHubOptions;

  /** Opens `url`; a failure to open is reported through `onEnd`, after the constructor returned. */
  constructor(o: ResolvedHubOptions, url: string, accessToken: string, events: HubConnectionEvents) {
    this.#o = o;
    this.#events = events;
    this.#decoder = new RecordDecoder(o.maxReceiveBytes);
    this.#arm(o.handshakeTimeoutMs);
    try {
      this.#socket = o.sockets.connect(
        url,
        { Authorization: `Bearer ${accessToken}` },
        {
          onOpen: () => this.#sendQuietly(handshakeRecord),
          onMessage: (data) => this.#received(data),
          onClose: (reason) => this.end(new AgentError('network', `hub socket closed: ${reason}`), true),
        },
      );
    } catch (e) {
      const error = new AgentError('network', 'hub socket could not be opened', { cause: e });
      void Promise.resolve().then(() => this.end(error, true));
    }
  }

  /** The handshake was accepted: the timer turns from its deadline to the keep-alive. */
  handshakeDone(): void {
    this.#handshaken = true;
    this.#sentMs = this.#receivedMs = this.#o.clock.monotonicMs();
    if (this.#events !== undefined) this.#arm(Math.min(this.#o.pingIntervalMs, this.#o.serverTimeoutMs));
  }

  /** Sends one encoded record (size already checked); a failed send ends the connection and throws. */
  send(record: string): void {
    if (this.#events === undefined || this.#socket === undefined)
      throw new AgentError('closed', 'hub socket is closed');
    try {
      this.#socket.send(record);
    } catch (e) {
      const error = new AgentError('network', 'hub socket send failed', { cause: e });
      this.end(error, true);
      throw error;
    }
    this.#sentMs = this.#o.clock.monotonicMs();
  }

  /** Ends the connection (idempotent): timer stopped, socket closed, `onEnd` called once. */
  end(error: AgentError, reconnect: boolean): void {
    const events = this.#events;
    if (events === undefined) return;
    this.#events = undefined;
    if (this.#timer !== undefined) this.#o.clock.clearTimer(this.#timer);
    this.#decoder.reset();
    try {
      this.#socket?.close();
    } catch {
      // Already closed by the peer; nothing more to release.
    }
    events.onEnd(error, reconnect);
  }

  #sendQuietly(record: string): void {
    try {
      this.send(record);
    } catch {
      // end() has run and reported why.
    }
  }

  #arm(delayMs: number): void {
    if (this.#timer !== undefined) this.#o.clock.clearTimer(this.#timer);
    this.#timer = this.#o.clock.setTimer(() => this.#tick(), delayMs);
  }

  /** The one timer fired: the handshake is late, or a keep-alive check is due. */
  #tick(): void {
    this.#timer = undefined;
    const o = this.#o;
    const now = o.clock.monotonicMs();
    if (!this.#handshaken) {
      return this.end(new AgentError('timeout', `hub: no handshake answer in ${o.handshakeTimeoutMs} ms`), true);
    }
    if (now - this.#receivedMs >= o.serverTimeoutMs) {
      return this.end(new AgentError('timeout', `hub: nothing received for ${o.serverTimeoutMs} ms`), true);
    }
    if (now - this.#sentMs >= o.pingIntervalMs) this.#sendQuietly(pingRecord);
    if (this.#events !== undefined) {
      this.#arm(Math.min(this.#sentMs + o.pingIntervalMs, this.#receivedMs + o.serverTimeoutMs) - now);
    }
  }

  #received(data: string): void {
    if (this.#events === undefined) return;
    this.#receivedMs = this.#o.clock.monotonicMs();
    try {
      this.#decoder.push(data, (record) => this.#events?.onRecord(record));
    } catch (e) {
      // Only the decoder throws here (too-large); onRecord never throws.
      this.end(toAgentError(e), true);
    }
  }
}
