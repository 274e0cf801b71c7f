/**
 * Connection tokens from negotiate (decisions 7): random, bound to the access
 * token that asked for them, single-use, expiring `ttlMs` after issue (30 s by
 * default) on the service clock. Each access token has its own bounded queue
 * of at most `maxPerAccessToken` outstanding tokens: issuing beyond drops that
 * access token's oldest (counted in `evicted`), never another's. The table as a
 * whole is bounded by the fixture's tokens times `maxPerAccessToken`.
 */
import { randomBytes } from 'node:crypto';

interface Issued {
  accessToken: string;
  expiresMs: number;
}

export type Redeemed = 'ok' | 'unknown' | 'expired' | 'other-token';

export class ConnectionTokens {
  private readonly issued = new Map<string, Issued>();
  /** Outstanding connection tokens of each access token, oldest first. */
  private readonly byAccessToken = new Map<string, string[]>();
  /** Tokens dropped because their access token had `maxPerAccessToken` outstanding. */
  evicted = 0;

  constructor(
    private readonly now: () => number,
    private readonly ttlMs: number,
    private readonly maxPerAccessToken = 16,
  ) {}

  /** A new random token bound to `accessToken`. */
  issue(accessToken: string): string {
    const nowMs = this.now();
    const queue = (this.byAccessToken.get(accessToken) ?? []).filter((t) => {
      const live = (this.issued.get(t)?.expiresMs ?? 0) > nowMs;
      if (!live) this.issued.delete(t);
      return live;
    });
    while (queue.length >= this.maxPerAccessToken) {
      this.issued.delete(queue.shift() as string);
      this.evicted++;
    }
    const token = randomBytes(18).toString('base64url');
    this.issued.set(token, { accessToken, expiresMs: nowMs + this.ttlMs });
    queue.push(token);
    this.byAccessToken.set(accessToken, queue);
    return token;
  }

  /** Outstanding (issued, not yet redeemed) tokens in the table, expired ones included until swept. */
  get size(): number {
    return this.issued.size;
  }

  /** Uses a token up: it is gone afterwards, whatever the outcome. */
  redeem(token: string, accessToken: string): Redeemed {
    const t = this.issued.get(token);
    if (!t) return 'unknown';
    this.issued.delete(token);
    const queue = this.byAccessToken.get(t.accessToken);
    if (queue !== undefined) {
      const i = queue.indexOf(token);
      if (i !== -1) queue.splice(i, 1);
    }
    if (t.expiresMs <= this.now()) return 'expired';
    return t.accessToken === accessToken ? 'ok' : 'other-token';
  }
}
