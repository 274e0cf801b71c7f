/**
 * Wall time on Moddable: SNTP when a server is configured (decisions.md 4; the
 * HTTP `Date` header is the core's fallback). A failed attempt is retried with
 * the core's full-jitter backoff on the injected clock; it never gives up.
 */
import SNTP from 'sntp';
import type { Logger } from '../../src/ports.js';
import { fullJitter, type RetryPolicy } from '../../src/retry/backoff.js';
import type { ModdableClock } from './clock.js';
import { info, warn } from '../../src/errors.js';

/** Sets the board's clock from `host` (asking again after each failure). */
export function syncTime(
  host: string,
  clock: ModdableClock,
  logger: Logger,
  policy: RetryPolicy = fullJitter(5_000, 300_000),
): void {
  let attempt = 0;
  const ask = (): void => {
    new SNTP({ host }, (message, value) => {
      if (message === SNTP.time && value !== undefined) {
        clock.setWallMs(value * 1000);
        info(logger, 'sntp: time set', { host });
      } else if (message === SNTP.error) {
        const delayMs = policy.nextDelayMs(++attempt) ?? 300_000;
        warn(logger, 'sntp: failed', { host, attempt, delayMs });
        clock.setTimer(ask, delayMs);
      }
    });
  };
  ask();
}
