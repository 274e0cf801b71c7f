/**
 * The request budget of each access token (decisions 10): a token bucket of
 * `burst` requests refilled at `ratePerSecond`, on the injected clock. A request
 * takes one; an empty bucket answers 429 with `Retry-After` in whole seconds,
 * the time until one request is back. Buckets exist only for authenticated
 * tokens, so the map is bounded by the token table.
 */
import { ServiceError } from '../errors.js';

interface Bucket {
  tokens: number;
  atMs: number;
}

export class RequestBudget {
  private readonly buckets = new Map<string, Bucket>();
  /** Requests refused with 429 since start (the metrics read it). */
  refused = 0;

  constructor(
    private readonly ratePerSecond: number,
    private readonly burst: number,
  ) {}

  /** Takes one request of `token`'s budget at `nowMs`, or throws ServiceError `rate-limited` (429). */
  take(token: string, nowMs: number): void {
    let b = this.buckets.get(token);
    if (b === undefined) this.buckets.set(token, (b = { tokens: this.burst, atMs: nowMs }));
    else if (nowMs > b.atMs) {
      b.tokens = Math.min(this.burst, b.tokens + ((nowMs - b.atMs) / 1000) * this.ratePerSecond);
      b.atMs = nowMs;
    }
    if (b.tokens >= 1) {
      b.tokens -= 1;
      return;
    }
    this.refused++;
    const waitS = Math.max(1, Math.ceil((1 - b.tokens) / this.ratePerSecond));
    throw new ServiceError(
      'rate-limited',
      `request budget spent: ${this.ratePerSecond} requests/s, burst ${this.burst}; retry after ${waitS} s`,
      { retryAfterSeconds: waitS },
    );
  }
}
