/**
 * When the agent reads its configuration (the start-up read, and the
 * configuration that follows the service): at start, then every `periodMs`
 * (each wait drawn from [0.75, 1] x the period, so a fleet does not ask in step
 * and a change is seen within one period), when the hub reconnects and when the
 * service refuses a batch (`nudge`). A read that fails is retried with the
 * agent's backoff until one succeeds; then the periodic refresh resumes. Calls
 * while a read is under way join it. One timer, on the injected clock.
 */
import { toAgentError } from '../errors.js';
import type { Clock, Logger, TimerHandle } from '../ports.js';
import type { RetryPolicy } from '../retry/backoff.js';

export interface ConfigFollowerOptions {
  /** Refresh period, ms; 0 turns the periodic refresh off. */
  periodMs: number;
  /** Uniform random in [0, 1) for the jitter. */
  random: () => number;
}

export class ConfigFollower {
  private timer: TimerHandle | undefined;
  private attempt = 0;
  private reading: Promise<void> | undefined;
  private running = false;

  constructor(
    private readonly clock: Clock,
    private readonly logger: Logger,
    private readonly retry: RetryPolicy,
    private readonly options: ConfigFollowerOptions,
    /** Reads and applies the configuration; rejects when it cannot be read. */
    private readonly load: () => Promise<void>,
  ) {
    if (!(options.periodMs >= 0)) throw new RangeError('configRefreshMs: expected a number >= 0');
  }

  /** Starts following; resolves after the first read attempt (a failure is retried, not thrown). */
  async start(): Promise<void> {
    this.running = true;
    try {
      await this.read();
    } catch (e) {
      this.logger.log('warn', 'configuration not read; retrying', { reason: toAgentError(e).message });
      this.scheduleRetry();
    }
  }

  /** Reads now (joins a read under way). Rejects like `load`; the caller decides what a failure means. */
  read(): Promise<void> {
    if (this.reading === undefined) {
      this.reading = this.readOnce().finally(() => {
        this.reading = undefined;
      });
    }
    return this.reading;
  }

  /** Reads now because something suggests a change (hub reconnect); a failure is logged and retried. */
  nudge(why: string): void {
    if (!this.running) return;
    this.read().catch((e: unknown) => {
      this.logger.log('warn', `configuration not read (${why}); retrying`, { reason: toAgentError(e).message });
      this.scheduleRetry();
    });
  }

  stop(): void {
    this.running = false;
    this.clearTimer();
  }

  private async readOnce(): Promise<void> {
    await this.load();
    this.attempt = 0;
    if (this.running) this.scheduleRefresh();
  }

  private scheduleRefresh(): void {
    this.clearTimer();
    if (this.options.periodMs === 0) return;
    const delayMs = Math.floor(this.options.periodMs * (0.75 + 0.25 * this.options.random()));
    this.timer = this.clock.setTimer(() => {
      this.timer = undefined;
      this.nudge('periodic refresh');
    }, delayMs);
  }

  private scheduleRetry(): void {
    if (!this.running) return;
    this.clearTimer();
    this.attempt++;
    const delayMs = this.retry.nextDelayMs(this.attempt) ?? 60000;
    this.timer = this.clock.setTimer(() => {
      this.timer = undefined;
      this.read().catch((e: unknown) => {
        this.logger.log('debug', 'configuration still not read', { reason: toAgentError(e).message });
        this.scheduleRetry();
      });
    }, delayMs);
  }

  private clearTimer(): void {
    if (this.timer !== undefined) this.clock.clearTimer(this.timer);
    this.timer = undefined;
  }
}
