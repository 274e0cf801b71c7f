/**
 * One WebSocket of the hub connection, mechanism only: opens it with the
 * Authorization header, sends the handshake, bounds the time to the handshake
 * answer, splits incoming text into records (record-codec), runs the keep-alive,
 * and reports exactly one end. What the records mean, and the connection's
 * state, belong to HubClient.
 */
import { AgentError } from '../errors.js';
import type { Clock, TimerHandle, WebSocketConnection, WebSocketFactory } from '../ports.js';
import { KeepAlive } from './keep-alive.js';
import { handshakeRecord, pingRecord } from './messages.js';
import { RecordDecoder } from './record-codec.js';

export interface HubSocketOptions {
  url: string;
  accessToken: string;
  handshakeTimeoutMs: number;
  pingIntervalMs: number;
  serverTimeoutMs: number;
  maxReceiveBytes: number;
}

export interface HubSocketEvents {
  /** One record's text, separator removed; the first one is the handshake answer. */
  onRecord(text: string): void;
  /** Called exactly once; nothing is reported after it. */
  onEnd(error: AgentError, reconnect: boolean): void;
}

export class HubSocket {
  #decoder: RecordDecoder;
  #keepAlive: KeepAlive;
  #handshakeTimer: TimerHandle | undefined;
  #connection: WebSocketConnection | undefined;
  /** One-shot latch: set by `end`, after which every socket event is dropped. */
  #ended = false;

  readonly #clock: Clock;
  readonly #events: HubSocketEvents;

  constructor(sockets: WebSocketFactory, clock: Clock, options: HubSocketOptions, events: HubSocketEvents) {
    this.#clock = clock;
    this.#events = events;
    this.#decoder = new RecordDecoder(options.maxReceiveBytes);
    this.#keepAlive = new KeepAlive(
      clock,
      options.pingIntervalMs,
      options.serverTimeoutMs,
      () => this.#sendQuietly(pingRecord),
      () => this.end(new AgentError('timeout', `hub: nothing received for ${options.serverTimeoutMs} ms`), true),
    );
    this.#handshakeTimer = clock.setTimer(() => {
      this.#handshakeTimer = undefined;
      this.end(new AgentError('timeout', `hub: no handshake answer in ${options.handshakeTimeoutMs} ms`), true);
    }, options.handshakeTimeoutMs);
    try {
      this.#connection = sockets.connect(
        options.url,
        { Authorization: `Bearer ${options.accessToken}` },
        {
          onOpen: () => this.#sendQuietly(handshakeRecord),
          onMessage: (data) => this.#received(data),
          onClose: (reason) => this.end(new AgentError('network', `hub socket closed: ${reason}`), true),
        },
      );
    } catch (e) {
      // Report the failure after the constructor returned, like any other end.
      const error = new AgentError('network', 'hub socket could not be opened', { cause: e });
      void Promise.resolve().then(() => this.end(error, true));
    }
  }

  /** The handshake was accepted: stop its timer, start the keep-alive. */
  handshakeDone(): void {
    if (this.#ended) return;
    this.#clearHandshakeTimer();
    this.#keepAlive.start();
  }

  /** Sends one encoded record (size already checked by the caller). */
  send(record: string): void {
    if (this.#ended || this.#connection === undefined) throw new AgentError('closed', 'hub socket is closed');
    try {
      this.#connection.send(record);
    } catch (e) {
      const error = new AgentError('network', 'hub socket send failed', { cause: e });
      this.end(error, true);
      throw error;
    }
    this.#keepAlive.noteSent();
  }

  /** Sends a protocol record (handshake, Ping); a failure has already ended the socket. */
  #sendQuietly(record: string): void {
    if (this.#ended) return;
    try {
      this.send(record);
    } catch {
      // end() has run and reported why.
    }
  }

  /** Ends the connection (idempotent): timers stopped, socket closed, `onEnd` called once. */
  end(error: AgentError, reconnect: boolean): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#clearHandshakeTimer();
    this.#keepAlive.stop();
    this.#decoder.reset();
    try {
      this.#connection?.close();
    } catch {
      // Already closed by the peer; nothing more to release.
    }
    this.#events.onEnd(error, reconnect);
  }

  #received(data: string): void {
    if (this.#ended) return;
    this.#keepAlive.noteReceived();
    try {
      this.#decoder.push(data, (record) => {
        if (!this.#ended) this.#events.onRecord(record);
      });
    } catch (e) {
      // Only the decoder throws here (too-large); onRecord never throws.
      this.end(e instanceof AgentError ? e : new AgentError('internal', String(e)), true);
    }
  }

  #clearHandshakeTimer(): void {
    if (this.#handshakeTimer !== undefined) this.#clock.clearTimer(this.#handshakeTimer);
    this.#handshakeTimer = undefined;
  }
}
