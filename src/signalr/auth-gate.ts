/**
 * What the hub client does after 401/403 (docs/realtime.md: "an authentication
 * failure, not a retry loop"; decided in docs/realtime.md): the refused
 * token is not sent again for `retryMs`; the reconnect loop keeps reading the
 * token provider, and a different token goes through at the next backoff.
 * One error line per refusal, not one per attempt.
 */
import type { AgentError } from '../errors.js';
import type { Clock, Logger } from '../ports.js';

export class AuthGate {
  #refused: { token: string; untilMs: number } | undefined;
  readonly #clock: Clock;
  readonly #retryMs: number;
  readonly #logger: Logger;

  constructor(clock: Clock, retryMs: number, logger: Logger) {
    this.#clock = clock;
    this.#retryMs = retryMs;
    this.#logger = logger;
  }

  /** True while `token` is the refused one and its wait has not elapsed. */
  blocks(token: string): boolean {
    const refused = this.#refused;
    return refused !== undefined && refused.token === token && this.#clock.monotonicMs() < refused.untilMs;
  }

  /** The service refused `token` (negotiate answered 401/403). */
  refuse(token: string, error: AgentError): void {
    this.#refused = { token, untilMs: this.#clock.monotonicMs() + this.#retryMs };
    this.#logger.log('error', 'hub: authentication refused; waiting for a new token', {
      status: error.status,
      retryAfterMs: this.#retryMs,
    });
  }

  /** A negotiate succeeded: whatever was refused before no longer matters. */
  accept(): void {
    this.#refused = undefined;
  }
}
