/**
 * The request budget of each access token (decisions 10): a token bucket of
 * `burst` requests refilled at `ratePerSecond`, on the injected clock. A request
 * takes one; an empty bucket answers 429 with `Retry-After` in whole seconds,
 * the time until one request is back. Buckets exist only for authenticated
 * tokens, so the map is bounded by the token table.
 *
 * A client that ignores `Retry-After` costs the service an answer per request:
 * a flooder on four keep-alive connections drew about 2,000 refusals a second,
 * each a turn of the event loop that another device's read waited behind. So a
 * token's first 429 opens a window that lasts its `Retry-After`; within it,
 * `refusalsBeforeHold` more refusals are answered at once (requests already on
 * their way, an agent's other kinds of request), and each one past that is
 * marked to be held until the window ends (the HTTP router waits, then answers
 * the 429). A flooder then gets about `refusalsBeforeHold` answers per window
 * beside its budget, one per connection after each window.
 */
import { ServiceError } from '../errors.js';

interface Bucket {
  tokens: number;
  atMs: number;
  /** When the window of the last first 429 ends (its Retry-After), and the refusals within it. */
  windowEndMs: number;
  refusedInWindow: number;
}

/** The 429 of a request past its budget; `holdMs` > 0 when it is to be answered only once that has passed. */
export class BudgetRefusal extends ServiceError {
  constructor(
    detail: string,
    retryAfterSeconds: number,
    readonly holdMs: number,
  ) {
    super('rate-limited', detail, { retryAfterSeconds });
  }
}

export class RequestBudget {
  private readonly buckets = new Map<string, Bucket>();
  /** Requests refused with 429 since start (the metrics read it). */
  refused = 0;
  /** Of those, refusals marked to be held before their answer (the HTTP router holds them). */
  held = 0;

  constructor(
    private readonly ratePerSecond: number,
    private readonly burst: number,
    /** Refusals answered at once within one Retry-After window after its first (defaultLimits). */
    private readonly refusalsBeforeHold = Infinity,
  ) {}

  /** Takes one request of `token`'s budget at `nowMs`, or throws a BudgetRefusal (429, ServiceError `rate-limited`). */
  take(token: string, nowMs: number): void {
    let b = this.buckets.get(token);
    if (b === undefined) {
      b = { tokens: this.burst, atMs: nowMs, windowEndMs: -Infinity, refusedInWindow: 0 };
      this.buckets.set(token, b);
    } else if (nowMs > b.atMs) {
      b.tokens = Math.min(this.burst, b.tokens + ((nowMs - b.atMs) / 1000) * this.ratePerSecond);
      b.atMs = nowMs;
    }
    if (b.tokens >= 1) {
      b.tokens -= 1;
      return;
    }
    this.refused++;
    const waitS = Math.max(1, Math.ceil((1 - b.tokens) / this.ratePerSecond));
    let holdMs = 0;
    if (nowMs >= b.windowEndMs) {
      b.windowEndMs = nowMs + waitS * 1000;
      b.refusedInWindow = 0;
    } else if (++b.refusedInWindow > this.refusalsBeforeHold) {
      holdMs = b.windowEndMs - nowMs;
      this.held++;
    }
    throw new BudgetRefusal(
      `request budget spent: ${this.ratePerSecond} requests/s, burst ${this.burst}; retry after ${waitS} s`,
      waitS,
      holdMs,
    );
  }
}
