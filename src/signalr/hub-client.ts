/**
 * The device's SignalR client (docs/realtime.md, spec 4.8) as ONE state machine:
 * negotiate, open the WebSocket, handshake, route the records, keep alive, and
 * reconnect with back-off forever. The state union changes only in `#setState`
 * (STYLE.md practice 7). A HubConnection is the socket under the `handshaking`
 * and `connected` states, with one timer for its handshake deadline and its
 * keep-alive; the back-off wait has its own. Whatever fails at runtime is
 * logged or rejects an invocation; nothing throws into a socket handler.
 */
import { AgentError, toAgentError } from '../errors.js';
import type { LogFields, LogLevel, TimerHandle } from '../ports.js';
import { HubMessageType } from '../wire.js';
import { HubCalls, type ServerHandler } from './hub-calls.js';
import { HubConnection } from './hub-connection.js';
import { parseHandshake } from './messages.js';
import { negotiate, type Negotiated } from './negotiate.js';
import { resolveHubOptions, type HubClientOptions, type ResolvedHubOptions } from './options.js';
import { exceedsBytes } from '../utf8.js';
import { encodeRecord } from './record-codec.js';

/** The one state of the client. */
export type HubState =
  | { kind: 'idle' }
  | { kind: 'connecting' }
  | { kind: 'handshaking'; conn: HubConnection }
  | { kind: 'connected'; conn: HubConnection }
  | { kind: 'waiting'; error: AgentError }
  | { kind: 'stopped'; error: AgentError | undefined };

export type HubStateKind = HubState['kind'];
export type StateListener = (kind: HubStateKind, error: AgentError | undefined) => void;

/** How one attempt or connection ended. */
interface Ended {
  error: AgentError;
  reconnect: boolean;
  wasConnected: boolean;
}

const failed = (error: AgentError): Ended => ({ error, reconnect: true, wasConnected: false });

export class HubClient {
  readonly #o: ResolvedHubOptions;
  readonly #calls: HubCalls;
  readonly #listeners: StateListener[] = [];
  #state: HubState = { kind: 'idle' };
  /** The back-off wait of the reconnect loop, and how to end it early. */
  #wake: { timer: TimerHandle; resolve: () => void } | undefined;
  /** The token the service refused (401/403): not sent again before `untilMs`. */
  #refused: { token: string; untilMs: number } | undefined;

  constructor(options: HubClientOptions) {
    this.#o = resolveHubOptions(options);
    this.#calls = new HubCalls(this.#o.clock, this.#o.maxPendingInvocations, this.#o.logger);
  }

  /** The current state's kind. */
  get status(): HubStateKind {
    return this.#state.kind;
  }

  /** Calls `listener` on every state change (wrapped: a throwing listener is logged). */
  onStateChange(listener: StateListener): () => void {
    this.#listeners.push(listener);
    return () => void this.#listeners.splice(this.#listeners.indexOf(listener) >>> 0, 1);
  }

  /** Handles server invocations of `target` (case-insensitive). */
  on(target: string, handler: ServerHandler): () => void {
    return this.#calls.on(target, handler);
  }

  /** Starts the connect / reconnect loop (once; later calls do nothing). */
  start(): void {
    if (this.#state.kind !== 'idle') return;
    this.#run().catch((e: unknown) => this.#setState({ kind: 'stopped', error: toAgentError(e) }));
  }

  /** Stops for good: closes the socket, rejects pending invocations with `closed`. */
  stop(): void {
    const s = this.#state;
    if (s.kind === 'stopped') return;
    const error = new AgentError('closed', 'hub client stopped');
    this.#setState({ kind: 'stopped', error });
    if (s.kind === 'handshaking' || s.kind === 'connected') s.conn.end(error, false);
    if (this.#wake !== undefined) {
      this.#o.clock.clearTimer(this.#wake.timer);
      this.#wake.resolve();
    }
    this.#calls.failAll(error);
  }

  /**
   * Invokes `target` on the server and resolves with the Completion's result
   * (`null` when absent). Rejects with `network` when not connected, `too-large`,
   * `overflow`, `timeout`, `hub` (the Completion's error text) or on a drop.
   */
  async invoke(target: string, args: readonly unknown[], timeoutMs = this.#o.invocationTimeoutMs): Promise<unknown> {
    const s = this.#state;
    if (s.kind !== 'connected') throw this.#notConnected(target);
    const id = this.#calls.takeId();
    const record = this.#encode({ type: HubMessageType.invocation, invocationId: id, target, arguments: args });
    const result = this.#calls.wait(id, target, timeoutMs);
    try {
      s.conn.send(record);
    } catch (e) {
      this.#calls.fail(id, toAgentError(e));
    }
    return result;
  }

  /** THE place where the state changes. */
  #setState(next: HubState): void {
    const previous = this.#state.kind;
    this.#state = next;
    const error = next.kind === 'waiting' || next.kind === 'stopped' ? next.error : undefined;
    this.#log(next.kind === 'stopped' && error?.code !== 'closed' ? 'error' : 'info', next.kind, {
      from: previous,
      reason: error?.message,
    });
    for (const listener of [...this.#listeners]) {
      try {
        listener(next.kind, error);
      } catch (e) {
        this.#log('error', 'state listener failed', { error: toAgentError(e).message });
      }
    }
  }

  async #run(): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      const ended = await this.#attempt(attempt);
      if (this.#stopped()) return;
      this.#calls.failAll(new AgentError('network', `hub connection lost: ${ended.error.message}`));
      if (ended.wasConnected) attempt = 1;
      const delayMs = ended.reconnect ? this.#delayMs(attempt) : null;
      if (delayMs === null) return this.#setState({ kind: 'stopped', error: ended.error });
      this.#setState({ kind: 'waiting', error: ended.error });
      await new Promise<void>((resolve) => {
        this.#wake = { timer: this.#o.clock.setTimer(resolve, delayMs), resolve };
      });
      this.#wake = undefined;
      if (this.#stopped()) return;
    }
  }

  /** One negotiate + socket; resolves when it failed or, once connected, when it ends. */
  async #attempt(attempt: number): Promise<Ended> {
    this.#setState({ kind: 'connecting' });
    const o = this.#o;
    let token: string | undefined;
    let negotiated: Negotiated;
    try {
      token = await o.accessToken();
      const refused = this.#refused;
      if (refused?.token === token && o.clock.monotonicMs() < refused.untilMs) {
        return failed(new AgentError('auth', 'hub: waiting for a new token'));
      }
      negotiated = await negotiate(o.http, o.baseUrl, token);
      this.#refused = undefined;
      o.onSecrets({ connectionToken: negotiated.connectionToken, accessToken: negotiated.accessToken });
    } catch (e) {
      const error = toAgentError(e);
      if (error.code === 'auth' && token !== undefined) {
        // Not a retry loop (docs/realtime.md): one error line per refusal, the same token waits.
        this.#refused = { token, untilMs: o.clock.monotonicMs() + o.authRetryMs };
        this.#log('error', 'authentication refused; waiting for a new token', {
          status: error.status,
          retryAfterMs: o.authRetryMs,
        });
      } else this.#log('warn', 'connect failed', { attempt, code: error.code, reason: error.message });
      return failed(error);
    }
    if (this.#stopped()) return { ...failed(new AgentError('closed', 'stopped')), reconnect: false };
    return new Promise<Ended>((resolve) => {
      const conn: HubConnection = new HubConnection(this.#o, negotiated.socketUrl, negotiated.accessToken, {
        onRecord: (text) => this.#record(conn, text),
        onEnd: (error, reconnect) => resolve({ error, reconnect, wasConnected: this.#state.kind === 'connected' }),
      });
      this.#setState({ kind: 'handshaking', conn });
    });
  }

  /** One record of a live connection: the handshake answer first, then hub messages. */
  #record(conn: HubConnection, text: string): void {
    if (this.#state.kind === 'handshaking') {
      try {
        parseHandshake(text);
      } catch (e) {
        return conn.end(toAgentError(e), true);
      }
      conn.handshakeDone();
      return this.#setState({ kind: 'connected', conn });
    }
    this.#calls.route(
      text,
      (message) => conn.send(this.#encode(message)),
      (error, reconnect) => conn.end(error, reconnect),
    );
  }

  /** The policy's delay; a throwing policy is logged and replaced by a 60 s delay. */
  #delayMs(attempt: number): number | null {
    try {
      return this.#o.retry.nextDelayMs(attempt);
    } catch (e) {
      this.#log('error', 'retry policy failed; retrying in 60 s', { reason: toAgentError(e).message });
      return 60000;
    }
  }

  #encode(message: unknown): string {
    const record = encodeRecord(message);
    if (exceedsBytes(record, this.#o.maxMessageBytes)) {
      throw new AgentError('too-large', `hub message over ${this.#o.maxMessageBytes} bytes refused`);
    }
    return record;
  }

  /** A method, so that TypeScript does not narrow the state across awaits and callbacks. */
  #stopped(): boolean {
    return this.#state.kind === 'stopped';
  }

  #notConnected(target: string): AgentError {
    return new AgentError('network', `hub not connected (${this.#state.kind}); ${target} not sent`);
  }

  #log(level: LogLevel, message: string, fields?: LogFields): void {
    this.#o.logger.log(level, 'hub: ' + message, fields);
  }
}
