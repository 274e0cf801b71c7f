/**
 * Connection tokens from negotiate (decisions 7): random, bound to the access
 * token that asked for them, single-use, expiring `ttlMs` after issue (30 s by
 * default) on the service clock. At most `maxOutstanding` are kept; issuing
 * beyond drops the oldest (counted in `evicted`).
 */
import { randomBytes } from 'node:crypto';

interface Issued {
  accessToken: string;
  expiresMs: number;
}

export type Redeemed = 'ok' | 'unknown' | 'expired' | 'other-token';

export class ConnectionTokens {
  private readonly issued = new Map<string, Issued>();
  /** Tokens dropped because the table was full. */
  evicted = 0;

  constructor(
    private readonly now: () => number,
    private readonly ttlMs: number,
    private readonly maxOutstanding = 1000,
  ) {}

  /** A new random token bound to `accessToken`. */
  issue(accessToken: string): string {
    const nowMs = this.now();
    for (const [token, t] of this.issued) if (t.expiresMs <= nowMs) this.issued.delete(token);
    while (this.issued.size >= this.maxOutstanding) {
      const oldest = this.issued.keys().next().value as string;
      this.issued.delete(oldest);
      this.evicted++;
    }
    const token = randomBytes(18).toString('base64url');
    this.issued.set(token, { accessToken, expiresMs: nowMs + this.ttlMs });
    return token;
  }

  /** Uses a token up: it is gone afterwards, whatever the outcome. */
  redeem(token: string, accessToken: string): Redeemed {
    const t = this.issued.get(token);
    if (!t) return 'unknown';
    this.issued.delete(token);
    if (t.expiresMs <= this.now()) return 'expired';
    return t.accessToken === accessToken ? 'ok' : 'other-token';
  }
}
