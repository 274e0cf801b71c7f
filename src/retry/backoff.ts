/**
 * Retry policy apart from mechanism (STYLE.md, practice 8): a policy maps the
 * attempt number to a delay, or `null` to stop. The default is exponential
 * backoff with full jitter and a cap, and a device never gives up.
 */

export interface RetryPolicy {
  /**
   * Delay before retry number `attempt` (1 for the first retry), in
   * milliseconds, or `null` to give up.
   */
  nextDelayMs(attempt: number): number | null;
}

export interface BackoffOptions {
  /** First window, ms. Default 1000. */
  baseMs?: number;
  /** Largest window, ms. Default 60000. */
  capMs?: number;
  /** Uniform random in [0, 1); injected so tests are deterministic. Default Math.random. */
  random?: () => number;
}

/**
 * Full jitter: delay = random x min(cap, base x 2^(attempt-1)), never null.
 * (AWS "Exponential Backoff and Jitter": full jitter spreads reconnect storms.)
 */
export class FullJitterBackoff implements RetryPolicy {
  readonly #baseMs: number;
  readonly #capMs: number;
  readonly #random: () => number;

  constructor(options: BackoffOptions = {}) {
    this.#baseMs = options.baseMs ?? 1000;
    this.#capMs = options.capMs ?? 60000;
    this.#random = options.random ?? Math.random;
    if (!(this.#baseMs > 0) || !(this.#capMs >= this.#baseMs)) {
      throw new RangeError('backoff: need 0 < baseMs <= capMs');
    }
  }

  /** The upper bound of the window for `attempt` (before jitter). */
  windowMs(attempt: number): number {
    const exponent = Math.min(Math.max(attempt - 1, 0), 30);
    return Math.min(this.#capMs, this.#baseMs * 2 ** exponent);
  }

  nextDelayMs(attempt: number): number {
    return Math.floor(this.#random() * this.windowMs(attempt));
  }
}
