/**
 * A tiny absolute-URL splitter for the HTTP and WebSocket adapters: XS has no
 * `URL` class. Handles what the firmware builds from the board's `serviceUrl`:
 * `http`, `https`, `ws` and `wss`, a host name or a bracketed IPv6 address, an
 * optional port, and a path from `/` on (its query kept as is: the core
 * encodes it).
 */
import { AgentError } from '../../src/errors.js';

export interface UrlParts {
  secure: boolean;
  host: string;
  port: number;
  /** Path and query, starting with `/`. */
  path: string;
}

/** Splits `url`; throws AgentError `config.invalid` on anything else (a bad port included). */
export function splitUrl(url: string): UrlParts {
  const match = /^(?:http|ws)(s?):\/\/(\[[^\]]+\]|[^/:?#\s]+)(?::(\d{1,5}))?(\/\S*)?$/i.exec(url);
  const port = Number(match?.[3] ?? (match?.[1] ? 443 : 80));
  if (!match || !(port > 0 && port < 65536)) throw new AgentError('config.invalid', `url: invalid: ${url}`);
  return { secure: match[1] !== '', host: match[2]!.replace(/^\[|\]$/g, ''), port, path: match[4] ?? '/' };
}
