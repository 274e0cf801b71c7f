/**
 * A tiny absolute-URL splitter for the HTTP and WebSocket adapters: XS has no
 * `URL` class. Handles `http`, `https`, `ws` and `wss` with an optional port;
 * the path keeps its query string as is (the core encodes it).
 */
import { AgentError } from '../../src/errors.js';

export interface UrlParts {
  secure: boolean;
  host: string;
  port: number;
  /** Path and query, starting with `/`. */
  path: string;
}

/** Splits `url`; throws AgentError `config.invalid` on anything else. */
export function splitUrl(url: string): UrlParts {
  const match = /^(?:http|ws)(s?):\/\/(\[[^\]]+\]|[^/:?#]+)(?::(\d{1,5}))?([/?][^#]*)?(#.*)?$/i.exec(url);
  if (match === null) throw new AgentError('config.invalid', `url: not http(s)/ws(s): ${url}`);
  const secure = match[1] !== '';
  const port = match[3] === undefined ? (secure ? 443 : 80) : Number(match[3]);
  if (!(port > 0 && port < 65536)) throw new AgentError('config.invalid', `url: bad port: ${url}`);
  const rawPath = match[4] ?? '/';
  return {
    secure,
    host: (match[2] ?? '').replace(/^\[|\]$/g, ''),
    port,
    path: rawPath.startsWith('?') ? `/${rawPath}` : rawPath,
  };
}
