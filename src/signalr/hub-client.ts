/**
 * The minimal SignalR client of the device (docs/realtime.md, spec 4.8): negotiate,
 * WebSocket, JSON hub protocol, invocations, server handlers, keep-alive, and
 * one reconnect loop that never gives up. The connection has ONE state union,
 * changed only in `setState` (STYLE.md practice 7); everything that can fail
 * at runtime is logged or rejects an invocation, never throws into a socket
 * handler.
 */
import { AgentError, toAgentError } from '../errors.js';
import type { LogFields, LogLevel, TimerHandle } from '../ports.js';
import { AuthGate } from './auth-gate.js';
import { HandlerRegistry, type ServerHandler } from './handlers.js';
import { HubSocket } from './hub-socket.js';
import { PendingInvocations } from './invocations.js';
import { invocation, parseHandshake } from './messages.js';
import { MessageRouter } from './router.js';
import { negotiate, type Negotiated } from './negotiate.js';
import { resolveHubOptions, type HubClientOptions, type ResolvedHubOptions } from './options.js';
import { encodeRecord, exceedsBytes } from './record-codec.js';

/** The one state of the connection. */
export type HubState =
  | { kind: 'idle' }
  | { kind: 'connecting'; attempt: number }
  | { kind: 'handshaking'; attempt: number; socket: HubSocket }
  | { kind: 'connected'; socket: HubSocket }
  | { kind: 'waiting'; attempt: number; delayMs: number; error: AgentError }
  | { kind: 'stopped'; error: AgentError | undefined };

export type HubStateKind = HubState['kind'];
export type StateListener = (kind: HubStateKind, error: AgentError | undefined) => void;

/** How one attempt or connection ended. */
interface Ended {
  error: AgentError;
  reconnect: boolean;
  wasConnected: boolean;
}

export class HubClient {
  readonly #o: ResolvedHubOptions;
  readonly #pending: PendingInvocations;
  readonly #handlers: HandlerRegistry;
  readonly #router: MessageRouter;
  readonly #listeners: StateListener[] = [];
  #state: HubState = { kind: 'idle' };
  #wake: { timer: TimerHandle; resolve: () => void } | undefined;
  readonly #auth: AuthGate;

  constructor(options: HubClientOptions) {
    this.#o = resolveHubOptions(options);
    this.#pending = new PendingInvocations(this.#o.clock, this.#o.maxPendingInvocations);
    this.#handlers = new HandlerRegistry(this.#o.logger);
    this.#auth = new AuthGate(this.#o.clock, this.#o.authRetryMs, this.#o.logger);
    this.#router = new MessageRouter(this.#pending, this.#handlers, this.#o.logger, (m) => this.#encode(m));
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
    return this.#handlers.on(target, handler);
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
    if (s.kind === 'handshaking' || s.kind === 'connected') s.socket.end(error, false);
    if (this.#wake !== undefined) {
      this.#o.clock.clearTimer(this.#wake.timer);
      this.#wake.resolve();
    }
    this.#pending.rejectAll(error);
  }

  /**
   * Invokes `target` on the server and resolves with the Completion's result
   * (`null` when absent). Rejects with `network` when not connected, `too-large`,
   * `overflow`, `timeout`, `hub` (the Completion's error text) or on a drop.
   */
  invoke(target: string, args: readonly unknown[], timeoutMs = this.#o.invocationTimeoutMs): Promise<unknown> {
    const s = this.#state;
    if (s.kind !== 'connected') return Promise.reject(this.#notConnected(target));
    const id = this.#pending.takeId();
    let record: string;
    try {
      record = this.#encode(invocation(target, args, id));
    } catch (e) {
      return Promise.reject(toAgentError(e));
    }
    const result = this.#pending.add(id, target, timeoutMs);
    try {
      s.socket.send(record);
    } catch (e) {
      this.#pending.fail(id, toAgentError(e));
    }
    return result;
  }

  /**
   * Fire-and-forget invocation: true when written, false when not connected.
   * Throws AgentError `too-large` for a message over `maxMessageBytes`.
   */
  send(target: string, args: readonly unknown[]): boolean {
    const s = this.#state;
    const record = this.#encode(invocation(target, args));
    if (s.kind !== 'connected') return false;
    try {
      s.socket.send(record);
      return true;
    } catch {
      return false;
    }
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
      if (this.#isStopped()) return;
      this.#pending.rejectAll(new AgentError('network', `hub connection lost: ${ended.error.message}`));
      if (!ended.reconnect) return this.#setState({ kind: 'stopped', error: ended.error });
      if (ended.wasConnected) attempt = 1;
      const delayMs = this.#delayMs(attempt);
      if (delayMs === null) return this.#setState({ kind: 'stopped', error: ended.error });
      this.#setState({ kind: 'waiting', attempt, delayMs, error: ended.error });
      await new Promise<void>((resolve) => {
        this.#wake = { timer: this.#o.clock.setTimer(resolve, delayMs), resolve };
      });
      this.#wake = undefined;
      if (this.#isStopped()) return;
    }
  }

  /** One negotiate + socket; resolves when it failed or, once connected, when it ends. */
  async #attempt(attempt: number): Promise<Ended> {
    this.#setState({ kind: 'connecting', attempt });
    let token: string | undefined;
    let negotiated: Negotiated;
    try {
      token = await this.#o.accessToken();
      if (this.#auth.blocks(token)) {
        return { error: new AgentError('auth', 'hub: waiting for a new token'), reconnect: true, wasConnected: false };
      }
      negotiated = await negotiate(this.#o.http, this.#o.baseUrl, token);
      this.#auth.accept();
      this.#o.onSecrets({ connectionToken: negotiated.connectionToken, accessToken: negotiated.accessToken });
    } catch (e) {
      return { error: this.#attemptFailed(e, attempt, token), reconnect: true, wasConnected: false };
    }
    if (this.#isStopped()) return { error: new AgentError('closed', 'stopped'), reconnect: false, wasConnected: false };
    const options = { ...this.#o, url: negotiated.socketUrl, accessToken: negotiated.accessToken };
    return new Promise<Ended>((resolve) => {
      const socket: HubSocket = new HubSocket(this.#o.sockets, this.#o.clock, options, {
        onRecord: (text) => this.#received(socket, text),
        onEnd: (error, reconnect) => resolve({ error, reconnect, wasConnected: this.#state.kind === 'connected' }),
      });
      this.#setState({ kind: 'handshaking', attempt, socket });
    });
  }

  #attemptFailed(e: unknown, attempt: number, token: string | undefined): AgentError {
    const error = toAgentError(e);
    if (error.code === 'auth' && token !== undefined) this.#auth.refuse(token, error);
    else this.#log('warn', 'connect failed', { attempt, code: error.code, reason: error.message });
    return error;
  }

  /** The policy's delay; a throwing policy is logged and replaced by its cap-like fallback. */
  #delayMs(attempt: number): number | null {
    try {
      return this.#o.retry.nextDelayMs(attempt);
    } catch (e) {
      this.#log('error', 'retry policy failed; retrying in 60 s', { reason: toAgentError(e).message });
      return 60000;
    }
  }

  #log(level: LogLevel, message: string, fields?: LogFields): void {
    this.#o.logger.log(level, 'hub: ' + message, fields);
  }

  #isStopped(): boolean {
    return this.#state.kind === 'stopped';
  }

  /** One incoming record of `socket`: the handshake answer first, then hub messages. */
  #received(socket: HubSocket, text: string): void {
    const s = this.#state;
    if (s.kind === 'connected' && s.socket === socket) return this.#router.route(socket, text);
    if (s.kind !== 'handshaking' || s.socket !== socket) return;
    try {
      parseHandshake(text);
    } catch (e) {
      return socket.end(toAgentError(e), true);
    }
    this.#setState({ kind: 'connected', socket });
    socket.handshakeDone();
  }

  #encode(message: unknown): string {
    const record = encodeRecord(message);
    if (exceedsBytes(record, this.#o.maxMessageBytes)) {
      throw new AgentError('too-large', `hub message over ${this.#o.maxMessageBytes} bytes refused`);
    }
    return record;
  }

  #notConnected(target: string): AgentError {
    return new AgentError('network', `hub not connected (${this.#state.kind}); ${target} not sent`);
  }
}
