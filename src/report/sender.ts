/**
 * Delivers the outbox to the service, oldest batch first, one request at a
 * time (at-least-once, in order): a batch leaves the outbox only after a 2xx.
 * Failures retry with the injected policy (FullJitterBackoff by default: a
 * device never gives up). 401/403 are not retried blindly: the sender waits
 * `authRetryMs` (long) and logs once per outage. A batch the service refuses as
 * malformed (400, 413, 422) would block the queue forever, so it is dropped,
 * counted in `rejected` and logged; with a refusal handler (400, 422), the
 * handler first splits off the records of channels no longer configured and
 * the rest is delivered (src/report/refusal.ts); a batch refused with no such
 * record is halved until the records refused on their own are found and dropped
 * (src/report/isolate.ts), so valid records are never dropped with them.
 *
 * The outbox learns each outcome (it writes to the store only once a delivery
 * has failed, and writes the rest at `stop`). `retryNow` cuts a back-off
 * short when the service is known to be back: the agent calls it on any
 * successful request (a configuration read, the desired resync after a hub
 * reconnect), so delivery resumes at once instead of after up to 60 s.
 */
import type { AgentCounters } from '../agent/counters.js';
import { AgentError, toAgentError } from '../errors.js';
import type { Clock, Logger, TimerHandle } from '../ports.js';
import type { RetryPolicy } from '../retry/backoff.js';
import type { ServiceClient } from '../service/client.js';
import { Paths } from '../wire.js';
import { isolateRefused, refusesContent } from './isolate.js';
import type { Outbox } from './outbox.js';
import type { OutboxBatch } from './outbox-options.js';
import type { RefusalHandler } from './refusal.js';

export type SenderState = 'idle' | 'sending' | 'waiting' | 'stopped';

export interface SenderOptions {
  /** Wait after a 401/403 before trying again, ms. Default 300000. */
  authRetryMs: number;
}

/** A refusal of the batch itself: its content (400, 422: may name a record), or its size (413). */
function refusesBatch(error: AgentError): boolean {
  return refusesContent(error) || (error.code === 'http.status' && error.status === 413);
}

export class Sender {
  private state: SenderState = 'idle';
  private attempt = 0;
  private timer: TimerHandle | undefined;
  private authFailed = false;
  /** Whether the last request reached the service. */
  online = false;
  /** Splits refused batches (400, 422) before anything is dropped; without it, they are dropped whole. */
  refusals: RefusalHandler | undefined;

  constructor(
    private readonly clock: Clock,
    private readonly client: ServiceClient,
    private readonly outbox: Outbox,
    private readonly policy: RetryPolicy,
    private readonly logger: Logger,
    private readonly counters: AgentCounters,
    private readonly options: SenderOptions = { authRetryMs: 300000 },
  ) {}

  get current(): SenderState {
    return this.state;
  }

  /** Starts a delivery if idle and something is queued. */
  kick(): void {
    if (this.state !== 'idle' || this.outbox.batches === 0) return;
    void this.sendNext();
  }

  /** Retries at once (e.g. after a successful config read shows the service is back). */
  retryNow(): void {
    if (this.state !== 'waiting') return;
    this.cancelTimer();
    this.state = 'idle';
    this.kick();
  }

  /** Stops delivering; what is queued is written to the store for the next run. */
  stop(): void {
    this.cancelTimer();
    this.state = 'stopped';
    this.outbox.persist();
  }

  private async sendNext(): Promise<void> {
    const batch = this.outbox.peek();
    if (batch === undefined) return;
    this.state = 'sending';
    try {
      await this.post(batch.lane, batch.json);
      if (this.stopped) return;
      this.outbox.remove(batch.seq);
      this.outbox.deliveryOk();
      this.counters.sent += batch.count;
      this.counters.requests++;
      this.attempt = 0;
      this.online = true;
      if (this.authFailed) this.logger.log('info', 'service accepts the token again');
      this.authFailed = false;
      this.state = 'idle';
    } catch (e) {
      if (this.stopped) return;
      this.counters.failures++;
      const error = toAgentError(e);
      if (this.refusals !== undefined && refusesContent(error)) {
        await this.onRefused(this.refusals, error, batch);
      } else {
        this.onFailure(error, batch.seq, batch.count);
      }
    }
    this.kick();
  }

  /** A refused batch: split off the records of removed channels and send the rest, or drop it as malformed. */
  private async onRefused(refusals: RefusalHandler, error: AgentError, batch: OutboxBatch): Promise<void> {
    this.online = true;
    const outcome = await refusals.handle(batch);
    if (this.stopped) return;
    if (outcome.kind === 'split') {
      this.outbox.replace(batch, outcome.json, outcome.count);
      this.state = 'idle';
    } else if (outcome.kind === 'malformed' && batch.count > 1) {
      await this.isolate(batch);
    } else if (outcome.kind === 'malformed') {
      this.onFailure(error, batch.seq, batch.count);
    } else {
      this.logger.log('warn', 'service refused a batch; configuration not readable, retrying', {
        status: error.status,
        reason: outcome.reason,
      });
      this.wait(this.policy.nextDelayMs(++this.attempt) ?? this.options.authRetryMs);
    }
  }

  /** A batch refused with no removed channel in it: deliver it around the records refused on their own. */
  private async isolate(batch: OutboxBatch): Promise<void> {
    const records = (JSON.parse(batch.json) as unknown[]).map((record) => JSON.stringify(record));
    let left = batch.count;
    try {
      await isolateRefused(records, {
        post: (json) => {
          if (this.stopped) throw new AgentError('closed', 'sender stopped');
          return this.post(batch.lane, json);
        },
        remaining: (json, count) => {
          left = count;
          this.outbox.replace(batch, json, count);
        },
        delivered: (count) => {
          this.counters.sent += count;
          this.counters.requests++;
        },
        dropped: (record, error) => {
          this.counters.rejected++;
          this.logger.log('error', 'service refused a record; dropped', {
            status: error.status,
            record: record.length > 160 ? `${record.slice(0, 160)}...` : record,
            reason: error.message,
          });
        },
      });
      this.outbox.deliveryOk();
      this.state = 'idle';
    } catch (e) {
      if (!this.stopped) this.onFailure(toAgentError(e), batch.seq, left);
    }
  }

  private post(lane: OutboxBatch['lane'], json: string): Promise<void> {
    const path = lane === 's' ? Paths.statesWrite : Paths.measurementsWrite;
    const field = lane === 's' ? 'states' : 'measurements';
    return this.client.post(path, `${this.client.devicePrefix()}"${field}":${json}}`);
  }

  private onFailure(error: AgentError, seq: number, count: number): void {
    if (refusesBatch(error)) {
      this.online = true;
      this.outbox.remove(seq);
      this.counters.rejected += count;
      this.logger.log('error', 'service refused a batch; dropped', {
        status: error.status,
        records: count,
        reason: error.message,
      });
      this.state = 'idle';
      return;
    }
    this.outbox.deliveryFailed();
    let delayMs: number;
    if (error.code === 'auth') {
      this.online = true;
      if (!this.authFailed)
        this.logger.log('error', 'service refused the token; not retrying blindly', {
          status: error.status,
          retryInMs: this.options.authRetryMs,
        });
      this.authFailed = true;
      delayMs = this.options.authRetryMs;
    } else {
      this.online = false;
      this.attempt++;
      delayMs = this.policy.nextDelayMs(this.attempt) ?? this.options.authRetryMs;
      this.logger.log(this.attempt === 1 ? 'warn' : 'debug', 'delivery failed; retrying', {
        code: error.code,
        status: error.status,
        attempt: this.attempt,
        delayMs,
      });
    }
    this.wait(delayMs);
  }

  /** Whether `stop` was called (while a request was out, too). */
  private get stopped(): boolean {
    return this.state === 'stopped';
  }

  private cancelTimer(): void {
    if (this.timer !== undefined) this.clock.clearTimer(this.timer);
    this.timer = undefined;
  }

  private wait(delayMs: number): void {
    this.state = 'waiting';
    this.timer = this.clock.setTimer(this.onRetry, delayMs);
  }

  private readonly onRetry = (): void => {
    this.timer = undefined;
    if (this.state !== 'waiting') return;
    this.state = 'idle';
    this.kick();
  };
}
