/**
 * Keep-alive of one hub connection (spec 4.8 Ping): a Ping when nothing was
 * sent for `pingIntervalMs` (driven by the last send, independent of what is
 * received), and the server declared gone after `serverTimeoutMs` without
 * receiving anything. Each side uses one timer that re-arms itself for the
 * remaining time, so a send or receive costs a clock read, not a new timer.
 */
import type { Clock, TimerHandle } from '../ports.js';

export class KeepAlive {
  #lastSentMs = 0;
  #lastReceivedMs = 0;
  #pingTimer: TimerHandle | undefined;
  #timeoutTimer: TimerHandle | undefined;

  readonly #clock: Clock;
  readonly #pingIntervalMs: number;
  readonly #serverTimeoutMs: number;
  readonly #sendPing: () => void;
  readonly #onServerTimeout: () => void;

  /**
   * @param sendPing sends one Ping (and calls `noteSent`).
   * @param onServerTimeout called once when the server has been silent too long.
   */
  constructor(
    clock: Clock,
    pingIntervalMs: number,
    serverTimeoutMs: number,
    sendPing: () => void,
    onServerTimeout: () => void,
  ) {
    this.#sendPing = sendPing;
    this.#onServerTimeout = onServerTimeout;
    this.#clock = clock;
    this.#pingIntervalMs = pingIntervalMs;
    this.#serverTimeoutMs = serverTimeoutMs;
  }

  /** Starts both timers, counting from now. */
  start(): void {
    const now = this.#clock.monotonicMs();
    this.#lastSentMs = now;
    this.#lastReceivedMs = now;
    this.#armPing(this.#pingIntervalMs);
    this.#armTimeout(this.#serverTimeoutMs);
  }

  stop(): void {
    if (this.#pingTimer !== undefined) this.#clock.clearTimer(this.#pingTimer);
    if (this.#timeoutTimer !== undefined) this.#clock.clearTimer(this.#timeoutTimer);
    this.#pingTimer = undefined;
    this.#timeoutTimer = undefined;
  }

  noteSent(): void {
    this.#lastSentMs = this.#clock.monotonicMs();
  }

  noteReceived(): void {
    this.#lastReceivedMs = this.#clock.monotonicMs();
  }

  #armPing(delayMs: number): void {
    this.#pingTimer = this.#clock.setTimer(() => {
      const idleMs = this.#clock.monotonicMs() - this.#lastSentMs;
      if (idleMs >= this.#pingIntervalMs) {
        this.#sendPing();
        if (this.#pingTimer === undefined) return; // stopped while sending
        this.#armPing(this.#pingIntervalMs);
      } else {
        this.#armPing(this.#pingIntervalMs - idleMs);
      }
    }, delayMs);
  }

  #armTimeout(delayMs: number): void {
    this.#timeoutTimer = this.#clock.setTimer(() => {
      const silentMs = this.#clock.monotonicMs() - this.#lastReceivedMs;
      if (silentMs >= this.#serverTimeoutMs) {
        this.#timeoutTimer = undefined;
        this.#onServerTimeout();
      } else {
        this.#armTimeout(this.#serverTimeoutMs - silentMs);
      }
    }, delayMs);
  }
}
