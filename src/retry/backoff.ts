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

/**
 * Full jitter: delay = random x min(cap, base x 2^(attempt-1)), never null.
 * (AWS "Exponential Backoff and Jitter": full jitter spreads reconnect storms.)
 * `random` is uniform in [0, 1), injected so tests are deterministic.
 */
export function fullJitter(baseMs = 1000, capMs = 60000, random: () => number = Math.random): RetryPolicy {
  if (!(baseMs > 0) || !(capMs >= baseMs)) throw new RangeError('backoff: need 0 < baseMs <= capMs');
  return {
    nextDelayMs: (attempt) =>
      Math.floor(random() * Math.min(capMs, baseMs * 2 ** Math.min(Math.max(attempt - 1, 0), 30))),
  };
}
