/**
 * Authentication and scopes (spec 5, decisions 7). An admin token may do
 * everything; a device token only reads and writes its own device (states,
 * measurements, properties, channels, relations, details) and its hub
 * connection receives only its own Notify messages.
 */
import type { IncomingMessage } from 'node:http';
import type { FixtureToken } from './fixture.js';
import { forbidden, unauthorized } from './errors.js';

export type Principal = { role: 'admin'; token: string } | { role: 'device'; token: string; device: string };

export class TokenTable {
  private readonly byToken = new Map<string, Principal>();

  constructor(tokens: readonly FixtureToken[]) {
    for (const t of tokens) this.byToken.set(t.token, { ...t });
  }

  /** The principal of a raw access token, or undefined when unknown. */
  lookup(token: string): Principal | undefined {
    return this.byToken.get(token);
  }

  /**
   * The principal of a request's `Authorization: Bearer` header (spec 5.1);
   * `fallbackToken` (the hub's `access_token` query, as browsers send it) is
   * used only when there is no header. Throws 401.
   */
  authenticate(req: IncomingMessage, fallbackToken?: string | null): Principal {
    const header = req.headers.authorization;
    let token: string | undefined;
    if (header !== undefined) {
      const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
      if (!m) throw unauthorized('Authorization: expected "Bearer <token>"');
      token = m[1];
    } else if (fallbackToken) {
      token = fallbackToken;
    } else {
      throw unauthorized('Authorization header missing');
    }
    const principal = token === undefined ? undefined : this.lookup(token);
    if (!principal) throw unauthorized('unknown bearer token');
    return principal;
  }
}

/** Throws 403 unless the principal is an admin. */
export function requireAdmin(p: Principal, what: string): void {
  if (p.role !== 'admin') throw forbidden(`a device token may not ${what}`);
}

/** Throws 403 unless the principal is an admin or the device itself. */
export function requireDevice(p: Principal, deviceUid: string): void {
  if (p.role === 'device' && p.device !== deviceUid) throw forbidden('this token belongs to another device');
}
