/**
 * A Serial that outlives its device: a port that fails (an unplugged USB
 * adapter, a pty whose other end closed, an open that finds no device) is
 * closed and opened again with back-off on the injected clock, until it
 * works, for as long as the caller keeps it open. Wraps any Serial of
 * src/ports.ts (serialport on Node, `embedded:io/serial` on Moddable), so the
 * GNSS and Modbus providers need no reopen logic of their own.
 *
 * While the port is down, writes are dropped (said once per outage in the
 * log); the drivers above see silence and report what docs/gnss.md and
 * docs/buses.md document for a silent device (GNSS -ETIMEDOUT once the fix is
 * older than the channel's timeout; Modbus -ETIMEDOUT, then -ENODEV after 3
 * silent requests), and recover by themselves once bytes flow again. A
 * configuration error (`config.invalid`, `unsupported`) is thrown at once:
 * reopening cannot fix it.
 */
import { type AgentError, info, toAgentError } from '../errors.js';
import type { Clock, Logger, Serial, SerialHandlers, SerialOptions, SerialPort, TimerHandle } from '../ports.js';
import { fullJitter, type RetryPolicy } from '../retry/backoff.js';

export interface ReopenOptions {
  /** Delay before each reopen attempt. Default full jitter, 500 ms .. 30 s. */
  retry?: RetryPolicy;
}

export class ReopeningSerial implements Serial {
  constructor(
    private readonly inner: Serial,
    private readonly clock: Clock,
    private readonly logger: Logger,
    private readonly options: ReopenOptions = {},
  ) {}

  open(options: SerialOptions, handlers: SerialHandlers): SerialPort {
    const retry = this.options.retry ?? fullJitter(500, 30000);
    return new ReopeningPort(this.inner, this.clock, this.logger, retry, options, handlers);
  }
}

type PortState = 'up' | 'down' | 'closed';

/** One port: 'up' (inner open), 'down' (waiting to reopen) or 'closed' (by the caller). */
export class ReopeningPort implements SerialPort {
  private state: PortState = 'down';
  private port: SerialPort | undefined;
  private timer: TimerHandle | undefined;
  private attempt = 0;
  /** Times the port failed and was scheduled for reopening. */
  failures = 0;
  /** Times it was opened again after a failure. */
  reopens = 0;

  constructor(
    private readonly inner: Serial,
    private readonly clock: Clock,
    private readonly logger: Logger,
    private readonly retry: RetryPolicy,
    private readonly options: SerialOptions,
    private readonly handlers: SerialHandlers,
  ) {
    this.tryOpen(true);
  }

  get current(): PortState {
    return this.state;
  }

  write(bytes: Uint8Array): void {
    if (this.state !== 'up' || this.port === undefined) return; // down: dropped, said once in fail()
    try {
      this.port.write(bytes);
    } catch (e) {
      this.fail(toAgentError(e));
    }
  }

  close(): void {
    if (this.state === 'closed') return;
    this.state = 'closed';
    this.clock.clearTimer(this.timer);
    this.timer = undefined;
    this.closeInner();
  }

  private tryOpen(first: boolean): void {
    const generation = this.failures;
    try {
      this.port = this.inner.open(this.options, {
        onData: (bytes) => {
          if (generation !== this.failures || this.state !== 'up') return; // a stale port's late bytes
          if (this.attempt > 0) {
            info(this.logger, 'serial: port back', { port: String(this.options.port), attempts: this.attempt });
            this.attempt = 0;
          }
          this.handlers.onData(bytes);
        },
        onError: (error) => {
          if (generation === this.failures) this.fail(error);
        },
      });
    } catch (e) {
      const error = toAgentError(e);
      if (first && (error.code === 'config.invalid' || error.code === 'unsupported')) {
        this.state = 'closed';
        throw error;
      }
      this.state = 'up'; // so that fail() takes the usual path
      this.fail(error);
      return;
    }
    if (!first) this.reopens++;
    this.state = 'up';
  }

  /** The port failed: tell the caller once, close it, and try again after a back-off. */
  private fail(error: AgentError): void {
    if (this.state !== 'up') return;
    this.state = 'down';
    this.failures++;
    this.closeInner();
    this.attempt++;
    const delayMs = this.retry.nextDelayMs(this.attempt) ?? 30000;
    this.logger.log(this.attempt === 1 ? 'warn' : 'debug', 'serial: port failed; reopening', {
      port: String(this.options.port),
      error: error.message,
      attempt: this.attempt,
      delayMs,
    });
    if (this.attempt === 1) this.handlers.onError?.(error);
    this.timer = this.clock.setTimer(this.onRetry, delayMs);
  }

  private readonly onRetry = (): void => {
    this.timer = undefined;
    if (this.state === 'down') this.tryOpen(false);
  };

  private closeInner(): void {
    const port = this.port;
    this.port = undefined;
    try {
      port?.close();
    } catch {
      // A port that is already gone cannot be closed again; nothing is lost.
    }
  }
}
