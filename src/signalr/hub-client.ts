/**
 * The device's SignalR client (docs/realtime.md, spec 4.8): ONE object with ONE
 * state, changed only in `#set` (STYLE.md practice 7). It negotiates, opens the
 * WebSocket, handshakes, routes the records, keeps alive, and reconnects with
 * back-off forever. One timer serves whichever state is
 * current: the back-off wait (`waiting`), the handshake deadline
 * (`handshaking`, `serverTimeoutMs`), the keep-alive (`connected`: a Ping when nothing was sent for
 * `pingIntervalMs`, the server gone after `serverTimeoutMs` without receiving;
 * the timer re-arms for the remaining time, so a send or a receive costs a clock
 * read, not a timer).
 *
 * Messages acted on: Invocation (to the listeners; one that carries an
 * `invocationId` is answered with an error Completion, a device returns no
 * results), Completion (to the listeners: the device's own invocations are a
 * HubInvoker's, hub-invoker.ts, which no board links), Ping, Close. Everything
 * else is ignored unlogged. One listener list hears states and messages.
 * Whatever fails at runtime is logged or rejects an invocation; nothing throws
 * into a socket handler. Logging follows one rule: transitions, not repeats:
 * `hub: connected`; `hub: waiting` with the reason when an outage starts or its
 * error code changes (an error line for 401/403, `auth`); `hub: stopped` (an
 * error line when the server closed for good, info after `stop()`).
 */
import { optStr, readObject } from '../reader.js';
import { AgentError, info, logFailure, toAgentError, waitAfter } from '../errors.js';
import type { TimerHandle, WebSocketConnection } from '../ports.js';
import { HubMessageType as T } from '../wire.js';
import { negotiate } from './negotiate.js';
import { hubDefaults as D, hubRetry, type HubClientOptions } from './options.js';
import {
  encodeRecord,
  handshakeRecord,
  parseHubMessage,
  pingRecord,
  RecordDecoder,
  type CompletionMessage,
  type InvocationMessage,
} from './record-codec.js';

/** The one state of the client. */
export type HubStateKind = 'idle' | 'connecting' | 'handshaking' | 'connected' | 'waiting' | 'stopped';
/**
 * What listeners are told, in order: every state change, and every Invocation
 * and Completion received (a Completion unchecked past its type: its one
 * reader, a HubInvoker, checks it).
 */
export type HubEvent = HubStateKind | InvocationMessage | CompletionMessage;
/** Told every event; `error` says why for `waiting` and `stopped`. */
export type HubListener = (event: HubEvent, error: AgentError | undefined) => void;

export class HubClient {
  readonly #o: HubClientOptions;
  /**
   * The record decoder of the current socket (handshaking, connected): a new one
   * per socket, so nothing carries over, and the identity of that socket: events
   * of any other are dropped.
   */
  #decoder: RecordDecoder | undefined;
  readonly #listeners: HubListener[] = [];
  #state: HubStateKind = 'idle';
  #socket: WebSocketConnection | undefined;
  #timer: TimerHandle | undefined;
  #sentMs = 0;
  #receivedMs = 0;
  /** Failed attempts since the last connection: the retry policy's attempt number. */
  #attempt = 0;
  /** The error code of the outage last logged (undefined once connected). */
  #down: string | undefined;

  constructor(options: HubClientOptions) {
    this.#o = options;
  }

  get status(): HubStateKind {
    return this.#state;
  }

  /**
   * Calls `listener` on every event, synchronously (wrapped: a throwing listener
   * is logged, and the connection goes on). Returns the unsubscribe.
   */
  listen(listener: HubListener): () => void {
    this.#listeners.push(listener);
    return () => this.#listeners.splice(this.#listeners.indexOf(listener) >>> 0, 1);
  }

  /** Starts connecting (once; later calls do nothing). */
  start(): void {
    if (this.#state === 'idle') void this.#connect();
  }

  /** Stops for good: closes the socket; the state goes to `stopped` with AgentError `closed`. */
  stop(): void {
    if (this.#state !== 'stopped') this.#close(new AgentError('closed', 'hub: stopped'), false);
  }

  /** THE place where the state changes. */
  #set(state: HubStateKind, error?: AgentError): void {
    this.#state = state;
    const code = error?.code;
    const logger = this.#o.logger;
    if (state === 'connected') {
      this.#down = undefined;
      info(logger, 'hub: connected');
    } else if (error && (state === 'stopped' || code !== this.#down)) {
      this.#down = code;
      const level = code === 'closed' ? 'info' : state === 'stopped' || code === 'auth' ? 'error' : 'warn';
      logFailure(logger, level, 'hub: ' + state, error);
    }
    this.#emit(state, error);
  }

  #emit(event: HubEvent, error?: AgentError): void {
    for (const listener of [...this.#listeners]) {
      try {
        listener(event, error);
      } catch (e) {
        logFailure(this.#o.logger, 'error', 'hub: listener failed', e);
      }
    }
  }

  /** One attempt: token, negotiate, socket. */
  async #connect(): Promise<void> {
    const o = this.#o;
    this.#set('connecting');
    try {
      const token = await o.accessToken();
      const { socketUrl, connectionToken } = await negotiate(o.http, o.baseUrl, token);
      if (this.#state !== 'connecting') return;
      o.onSecret?.(connectionToken);
      const decoder = (this.#decoder = new RecordDecoder(o.maxReceiveBytes ?? D.maxReceiveBytes));
      const live = (): boolean => this.#decoder === decoder;
      const socket = o.sockets.connect(
        socketUrl,
        { Authorization: 'Bearer ' + token },
        {
          onOpen: () => live() && this.write(handshakeRecord),
          onMessage: (data) => {
            if (!live()) return;
            this.#receivedMs = o.clock.monotonicMs();
            try {
              decoder.push(data, (text) => live() && this.#record(text));
            } catch (e) {
              this.#close(toAgentError(e)); // too-large: the only throw of push, #record never throws
            }
          },
          onClose: (reason) => live() && this.#close(new AgentError('network', 'hub: closed: ' + reason)),
        },
      );
      if (!live()) return; // closed while connecting
      this.#socket = socket;
      this.#arm(o.serverTimeoutMs ?? D.serverTimeoutMs);
      this.#set('handshaking');
    } catch (e) {
      if (this.#state === 'connecting') this.#close(toAgentError(e));
    }
  }

  /** Ends the socket if any, then waits for the next attempt or stops. */
  #close(error: AgentError, reconnect = true): void {
    const socket = this.#socket;
    this.#socket = this.#decoder = undefined;
    this.#arm();
    try {
      socket?.close();
    } catch {
      // Already closed underneath.
    }
    if (this.#state === 'connected') this.#attempt = 0;
    // 401/403 is not a retry loop (docs/realtime.md): the next attempt waits authRetryMs.
    const o = this.#o;
    const delayMs = !reconnect
      ? null
      : error.code === 'auth'
        ? (o.authRetryMs ?? D.authRetryMs)
        : (o.retry ?? hubRetry).nextDelayMs(++this.#attempt);
    if (delayMs === null) return this.#set('stopped', error);
    this.#arm(waitAfter(error, delayMs)); // at least a 429/503's Retry-After
    this.#set('waiting', error);
  }

  /** Clears the one timer, and arms it for `#tick` after `delayMs` when given. */
  #arm(delayMs?: number): void {
    const clock = this.#o.clock;
    clock.clearTimer(this.#timer);
    this.#timer = delayMs === undefined ? undefined : clock.setTimer(() => this.#tick(), delayMs);
  }

  /**
   * Waiting, the next attempt; or the handshake is late; or, connected, the
   * keep-alive check: Ping or drop when due, re-arm for what is next.
   */
  #tick(): void {
    const o = this.#o;
    const pingIntervalMs = o.pingIntervalMs ?? D.pingIntervalMs;
    const serverTimeoutMs = o.serverTimeoutMs ?? D.serverTimeoutMs;
    const now = o.clock.monotonicMs();
    if (this.#state === 'waiting') return void this.#connect();
    if (this.#state === 'handshaking') return this.#close(new AgentError('timeout', 'hub: no handshake'));
    if (now - this.#receivedMs >= serverTimeoutMs) return this.#close(new AgentError('timeout', 'hub: server silent'));
    if (now - this.#sentMs >= pingIntervalMs && !this.write(pingRecord)) return;
    this.#arm(Math.min(this.#sentMs + pingIntervalMs, this.#receivedMs + serverTimeoutMs) - now);
  }

  /** One record of the live socket: the handshake answer first, then hub messages. */
  #record(text: string): void {
    const handshaking = this.#state === 'handshaking';
    try {
      if (handshaking) {
        const error = optStr(readObject(text, 'handshake')['error'], 'error');
        if (error !== undefined) throw new AgentError('hub', 'hub: handshake refused: ' + error);
        this.#sentMs = this.#receivedMs;
        this.#set('connected');
        // The first keep-alive check arms the timer (unless a listener stopped the client).
        return void (this.#state === 'connected' && this.#tick());
      }
      const m = parseHubMessage(text);
      if (m?.type === T.close) {
        this.#close(new AgentError('hub', 'hub: server closed: ' + (m.error ?? '')), m.allowReconnect === true);
      } else if (m) {
        // A device returns no results: an invocation that awaits one is answered at once.
        if (m.type === T.invocation && typeof m.invocationId === 'string') {
          this.write(encodeRecord({ type: T.completion, invocationId: m.invocationId, error: 'no client results' }));
        }
        this.#emit(m);
      }
    } catch (e) {
      if (handshaking) this.#close(toAgentError(e));
      else logFailure(this.#o.logger, 'warn', 'hub: message dropped', e);
    }
  }

  /**
   * Sends one encoded record (encodeRecord) on the live socket, if any (HubInvoker sends only
   * while `connected`); a failed send ends the connection, which reconnects, and answers false.
   */
  write(record: string): boolean {
    try {
      this.#socket?.send(record);
      this.#sentMs = this.#o.clock.monotonicMs();
      return true;
    } catch (e) {
      this.#close(new AgentError('network', 'hub: send failed', { cause: e }));
      return false;
    }
  }
}
