/**
 * Delivers the outbox to the service, oldest batch first, one request at a
 * time (at-least-once, in order): a batch leaves the outbox only after a 2xx.
 * Failures retry with the injected policy (a device never gives up), waiting at
 * least a 429's or 503's `Retry-After`; after a 401/403 the sender waits `authRetryMs`. The outbox learns each outcome (it
 * writes to the store only once a delivery has failed).
 *
 * A refused write (400, 422) never takes valid records down with it
 * (docs/decisions.md): with `refusals` set, the configuration is re-read and
 * the records of removed channels are split off (refusal.ts); a batch still
 * refused is halved, and halved again, until the records refused on their own
 * are found and dropped. Records keep their order; what is delivered leaves the
 * outbox at once, so a network failure midway requeues only the rest. A batch
 * refused for its size (413) or a single refused record is dropped, counted in
 * `rejected`.
 *
 * `retryNow` cuts a back-off short when the service is known to be back (the
 * agent calls it on any successful request).
 */
import type { CoreCounters } from '../agent/counters.js';
import { type AgentError, error as logError, info, logFailure, toAgentError, waitAfter, warn } from '../errors.js';
import type { Clock, Logger, ReusableTimer } from '../ports.js';
import type { RetryPolicy } from '../retry/backoff.js';
import type { ServiceClient } from '../service/client.js';
import { Paths } from '../wire.js';
import type { Outbox } from './outbox.js';
import type { Lane, OutboxBatch } from './outbox-options.js';
import { splitGone, type KnownChannels } from './refusal.js';

export type SenderState = 'idle' | 'sending' | 'waiting' | 'stopped';

/** What the sender needs to split a refused batch (the agent's configuration). */
export interface Refusals {
  /** Re-reads the configuration from the service; rejects when it cannot be read. */
  refresh(): Promise<void>;
  channels: KnownChannels;
}

/**
 * Whether an answer refuses the request's content (400, 422), not a failure of the network or the
 * service; with `orSize`, a request refused for its size (413) too.
 */
function refusesContent(error: AgentError, orSize = false): boolean {
  const status = error.code === 'http.status' ? error.status : 0;
  return status === 400 || status === 422 || (orSize && status === 413);
}

function halves(records: readonly string[]): string[][] {
  const middle = Math.ceil(records.length / 2);
  return [records.slice(0, middle), records.slice(middle)];
}

export class Sender {
  #state: SenderState = 'idle';
  #attempt = 0;
  /** The retry after a back-off (one timer, re-armed: `retryNow` when it fires). */
  readonly #timer: ReusableTimer;
  #authFailed = false;
  readonly #client: ServiceClient;
  readonly #outbox: Outbox;
  readonly #policy: RetryPolicy;
  readonly #logger: Logger;
  readonly #counters: CoreCounters;
  readonly #authRetryMs: number;
  /** Whether the last request reached the service. */
  online = false;
  /** Splits refused batches (400, 422) before anything is dropped; without it, they are isolated at once. */
  declare refusals: Refusals | undefined;

  constructor(
    clock: Clock,
    client: ServiceClient,
    outbox: Outbox,
    policy: RetryPolicy,
    logger: Logger,
    counters: CoreCounters,
    /** Wait after a 401/403 before trying again, ms. */
    authRetryMs = 300000,
  ) {
    this.#timer = clock.timer(() => this.retryNow());
    this.#client = client;
    this.#outbox = outbox;
    this.#policy = policy;
    this.#logger = logger;
    this.#counters = counters;
    this.#authRetryMs = authRetryMs;
  }

  get current(): SenderState {
    return this.#state;
  }

  /** Starts a delivery if idle and something is queued (not an async call per batch to find nothing). */
  kick(): void {
    if (this.#state === 'idle' && this.#outbox.records > 0) void this.#sendNext();
  }

  /** Retries at once (e.g. after a successful config read shows the service is back). */
  retryNow(): void {
    if (this.#state !== 'waiting') return;
    this.#timer.unschedule();
    this.#state = 'idle';
    this.kick();
  }

  /** Stops delivering (a request under way is not followed up); the owner writes what is queued to the store. */
  stop(): void {
    this.#timer.unschedule();
    this.#state = 'stopped';
  }

  async #sendNext(): Promise<void> {
    const batch = this.#outbox.peek();
    if (batch === undefined) return;
    this.#state = 'sending';
    try {
      await this.#post(batch.lane, batch.json);
      if (this.#stopped()) return;
      this.#outbox.remove(batch.seq);
      this.#delivered(batch.count);
    } catch (e) {
      if (this.#stopped()) return;
      this.#counters.failures++;
      const error = toAgentError(e);
      if (!refusesContent(error)) this.#failed(error, batch.seq, batch.count);
      else if (this.refusals === undefined || (await this.#split(this.refusals, error, batch))) {
        if (this.#stopped()) return;
        if (batch.count > 1) await this.#isolate(batch);
        else this.#failed(error, batch.seq, 1);
      }
    }
    if (this.#state === 'sending') this.#state = 'idle'; // not waiting for a retry
    this.kick();
  }

  /** A refused batch: re-reads the configuration and splits off removed channels; true when none was found. */
  async #split(refusals: Refusals, error: AgentError, batch: OutboxBatch): Promise<boolean> {
    this.online = true;
    try {
      await refusals.refresh();
    } catch (e) {
      if (this.#stopped()) return false;
      logFailure(this.#logger, 'warn', 'sender: refused, config unreadable', e, { status: error.status });
      this.#wait(waitAfter(toAgentError(e), this.#backoff()));
      return false;
    }
    if (this.#stopped()) return false;
    const kept = splitGone(batch, refusals.channels, this.#counters, this.#logger);
    if (kept === undefined) return true;
    this.#outbox.replace(batch, kept);
    return false;
  }

  /** Halves a refused batch down to the records refused on their own, which are dropped. */
  async #isolate(batch: OutboxBatch): Promise<void> {
    const pending = halves((JSON.parse(batch.json) as unknown[]).map((record) => JSON.stringify(record)));
    let left = batch.count;
    try {
      while (pending.length > 0) {
        if (this.#stopped()) return;
        const chunk = pending.shift()!;
        try {
          await this.#post(batch.lane, `[${chunk.join(',')}]`);
          this.#delivered(chunk.length);
        } catch (e) {
          const error = toAgentError(e);
          if (!refusesContent(error)) throw error;
          if (chunk.length > 1) {
            pending.unshift(...halves(chunk));
            continue;
          }
          this.#counters.rejected++;
          logError(this.#logger, 'sender: record refused, dropped', {
            status: error.status,
            record: chunk[0]!.slice(0, 160),
          });
        }
        const rest = pending.flat();
        left = rest.length;
        this.#outbox.replace(batch, rest);
      }
    } catch (e) {
      if (!this.#stopped()) this.#failed(toAgentError(e), batch.seq, left);
    }
  }

  #post(lane: Lane, json: string): Promise<void> {
    const states = lane === 's';
    const body = `${this.#client.devicePrefix()}"${states ? 'states' : 'measurements'}":${json}}`;
    return this.#client.post(states ? Paths.statesWrite : Paths.measurementsWrite, body);
  }

  /** `count` records were accepted: the service is reachable and takes the token. */
  #delivered(count: number): void {
    this.#counters.sent += count;
    this.#counters.requests++;
    this.#attempt = 0;
    this.online = true;
    if (this.#authFailed) info(this.#logger, 'sender: token accepted');
    this.#authFailed = false;
    this.#outbox.deliveryOk();
  }

  /** A failed delivery: drop a refused batch, or wait and retry (logged when the outage begins). */
  #failed(error: AgentError, seq: number, count: number): void {
    if (refusesContent(error, true)) {
      this.online = true;
      this.#outbox.remove(seq);
      this.#counters.rejected += count;
      return logError(this.#logger, 'sender: batch refused, dropped', {
        status: error.status,
        records: count,
        reason: error.message,
      });
    }
    this.#outbox.deliveryFailed();
    this.online = error.code === 'auth'; // only a refused token counts as reaching the service
    if (this.online) {
      if (!this.#authFailed) logError(this.#logger, 'sender: token refused', { status: error.status });
      this.#authFailed = true;
      return this.#wait(this.#authRetryMs);
    }
    // At least the Retry-After of a 429 or 503 (decisions 10); the batch stays queued.
    const delayMs = waitAfter(error, this.#backoff());
    if (this.#attempt === 1) warn(this.#logger, 'sender: delivery failed', { code: error.code, delayMs });
    this.#wait(delayMs);
  }

  /** The next retry delay of the policy (the auth wait once it gives none). */
  #backoff(): number {
    return this.#policy.nextDelayMs(++this.#attempt) ?? this.#authRetryMs;
  }

  /** Whether `stop` was called (while a request was out, too). */
  #stopped(): boolean {
    return this.#state === 'stopped';
  }

  #wait(delayMs: number): void {
    this.#state = 'waiting';
    this.#timer.schedule(delayMs);
  }
}
