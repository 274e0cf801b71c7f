/**
 * The hub messages of a connected socket, and the invocations both ways (spec
 * 4.8). `route` sends Completions to our invocations, Invocations to the
 * handlers, Close to the connection's end, and Ping, stream and unknown types
 * to nothing; a malformed record is logged and dropped. Ours await their Completion: string ids
 * counting up from "0", each with its own timeout, bounded in number; an `error`
 * rejects with its text (AgentError `hub`), a `null` or absent result is
 * success. The server's go to handlers by target, matched case-insensitively
 * like the official clients; every handler call is wrapped, so a throwing or
 * rejecting handler is logged and cannot break the connection (STYLE.md
 * practice 10). A target nobody handles is logged once (32 targets remembered).
 */
import { AgentError, toAgentError } from '../errors.js';
import type { Clock, Logger, TimerHandle } from '../ports.js';
import { HubMessageType } from '../wire.js';
import { parseHubMessage, type CompletionMessage } from './messages.js';

/** Receives an Invocation's `arguments` (validated as an array, contents unknown). */
export type ServerHandler = (args: readonly unknown[]) => void | Promise<void>;

interface Pending {
  target: string;
  resolve(result: unknown): void;
  reject(error: AgentError): void;
  timer: TimerHandle;
}

/** Unknown targets remembered as "already logged". */
const maxLoggedTargets = 32;

export class HubCalls {
  #nextId = 0;
  readonly #pending = new Map<string, Pending>();
  /** [lower-case target, handler], in the order they were added. */
  readonly #handlers: [string, ServerHandler][] = [];
  readonly #logged = new Set<string>();

  readonly #clock: Clock;
  readonly #maxPending: number;
  readonly #logger: Logger;

  constructor(clock: Clock, maxPending: number, logger: Logger) {
    this.#clock = clock;
    this.#maxPending = maxPending;
    this.#logger = logger;
  }

  /**
   * Handles one record of a connected socket; never throws. `reply` sends a
   * message (it may throw: logged here), `close` ends the connection.
   */
  route(text: string, reply: (message: unknown) => void, close: (error: AgentError, reconnect: boolean) => void): void {
    try {
      const m = parseHubMessage(text);
      if (m.kind === 'completion') {
        if (!this.complete(m)) this.#logger.log('debug', 'hub: late or unknown completion', { id: m.invocationId });
      } else if (m.kind === 'invocation') {
        this.#serve(m.target, m.arguments);
        // The device returns no results to the server (no client results): it says so, the server must not wait.
        if (m.invocationId !== undefined) {
          const error = `Client does not answer '${m.target}' invocations.`;
          reply({ type: HubMessageType.completion, invocationId: m.invocationId, error });
        }
      } else if (m.kind === 'close') {
        close(new AgentError('hub', `server closed the connection: ${m.error ?? 'no reason given'}`), m.allowReconnect);
      } else if (m.kind === 'ignored') this.#logger.log('debug', 'hub: message type ignored', { type: String(m.type) });
    } catch (e) {
      this.#logger.log('warn', 'hub: message dropped', { reason: toAgentError(e).message });
    }
  }

  /** Adds a handler for `target`; returns a function that removes it. */
  on(target: string, handler: ServerHandler): () => void {
    const entry: [string, ServerHandler] = [target.toLowerCase(), handler];
    this.#handlers.push(entry);
    return () => {
      const i = this.#handlers.indexOf(entry);
      if (i !== -1) this.#handlers.splice(i, 1);
    };
  }

  /** Calls every handler of `target` with `args`. */
  #serve(target: string, args: readonly unknown[]): void {
    const key = target.toLowerCase();
    const failed = (e: unknown): void =>
      this.#logger.log('error', 'hub: handler failed', { target, error: toAgentError(e).message });
    let served = false;
    for (const [k, handler] of [...this.#handlers]) {
      if (k !== key) continue;
      served = true;
      try {
        Promise.resolve(handler(args)).catch(failed);
      } catch (e) {
        failed(e);
      }
    }
    if (!served && !this.#logged.has(key) && this.#logged.size < maxLoggedTargets) {
      this.#logged.add(key);
      this.#logger.log('warn', 'hub: no handler for server invocation', { target });
    }
  }

  /** The next invocation id ("0", "1", ...); each call takes a new one. */
  takeId(): string {
    return String(this.#nextId++);
  }

  /**
   * Registers invocation `id`; the promise settles with its Completion, or
   * rejects with `timeout` after `timeoutMs`. Throws AgentError `overflow` when
   * the bound of waiting invocations is reached.
   */
  wait(id: string, target: string, timeoutMs: number): Promise<unknown> {
    if (this.#pending.size >= this.#maxPending) {
      throw new AgentError('overflow', `${this.#maxPending} hub invocations already pending`);
    }
    return new Promise<unknown>((resolve, reject) => {
      const timer = this.#clock.setTimer(
        () =>
          this.fail(id, new AgentError('timeout', `hub invocation ${target} (${id}) got no answer in ${timeoutMs} ms`)),
        timeoutMs,
      );
      this.#pending.set(id, { target, resolve, reject, timer });
    });
  }

  /** Settles the matching invocation; false when none waits for this id (late or unknown). */
  complete(m: CompletionMessage): boolean {
    const entry = this.#take(m.invocationId);
    if (entry === undefined) return false;
    if (m.error === undefined) entry.resolve(m.result ?? null);
    else entry.reject(new AgentError('hub', `${entry.target}: ${m.error}`));
    return true;
  }

  /** Rejects one invocation (timed out, or its message could not be sent). */
  fail(id: string, error: AgentError): void {
    this.#take(id)?.reject(error);
  }

  /** Rejects every waiting invocation (the connection dropped or was stopped). */
  failAll(error: AgentError): void {
    for (const id of [...this.#pending.keys()]) this.fail(id, error);
  }

  #take(id: string): Pending | undefined {
    const entry = this.#pending.get(id);
    if (entry === undefined) return undefined;
    this.#pending.delete(id);
    this.#clock.clearTimer(entry.timer);
    return entry;
  }
}
