/**
 * Our invocations awaiting their Completion (spec 4.8): string ids counting up
 * from "0", matched by id, each with its own timeout, bounded in number. An
 * `error` rejects with its text (AgentError `hub`); a `null` or absent result is
 * success. Late or unknown Completions are reported as unmatched and ignored.
 */
import { AgentError } from '../errors.js';
import type { Clock, TimerHandle } from '../ports.js';
import type { CompletionMessage } from './messages.js';

interface Pending {
  target: string;
  resolve(result: unknown): void;
  reject(error: AgentError): void;
  timer: TimerHandle;
}

export class PendingInvocations {
  #nextId = 0;
  #pending = new Map<string, Pending>();

  readonly #clock: Clock;
  readonly #maxPending: number;

  constructor(clock: Clock, maxPending: number) {
    this.#clock = clock;
    this.#maxPending = maxPending;
  }

  /** Number of invocations awaiting an answer. */
  get size(): number {
    return this.#pending.size;
  }

  /** The next invocation id ("0", "1", ...); each call takes a new one. */
  takeId(): string {
    return String(this.#nextId++);
  }

  /**
   * Registers invocation `id`; the promise settles with its Completion, or
   * rejects with `timeout` after `timeoutMs`. Rejects at once with `overflow`
   * when `maxPending` are already waiting.
   */
  add(id: string, target: string, timeoutMs: number): Promise<unknown> {
    if (this.#pending.size >= this.#maxPending) {
      return Promise.reject(new AgentError('overflow', `${this.#maxPending} hub invocations already pending`));
    }
    return new Promise<unknown>((resolve, reject) => {
      const timer = this.#clock.setTimer(() => {
        this.#pending.delete(id);
        reject(new AgentError('timeout', `hub invocation ${target} (${id}) got no answer in ${timeoutMs} ms`));
      }, timeoutMs);
      this.#pending.set(id, { target, resolve, reject, timer });
    });
  }

  /** Settles the matching invocation; false when none waits for this id (late or unknown). */
  complete(message: CompletionMessage): boolean {
    const entry = this.#pending.get(message.invocationId);
    if (entry === undefined) return false;
    this.#pending.delete(message.invocationId);
    this.#clock.clearTimer(entry.timer);
    if (message.error !== undefined) {
      entry.reject(new AgentError('hub', `${entry.target}: ${message.error}`));
    } else {
      entry.resolve(message.result ?? null);
    }
    return true;
  }

  /** Rejects one invocation (e.g. its message could not be sent). */
  fail(id: string, error: AgentError): void {
    const entry = this.#pending.get(id);
    if (entry === undefined) return;
    this.#pending.delete(id);
    this.#clock.clearTimer(entry.timer);
    entry.reject(error);
  }

  /** Rejects every pending invocation (the connection dropped or was stopped). */
  rejectAll(error: AgentError): void {
    const entries = [...this.#pending.values()];
    this.#pending.clear();
    for (const entry of entries) {
      this.#clock.clearTimer(entry.timer);
      entry.reject(error);
    }
  }
}
