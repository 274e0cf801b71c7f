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

/**
 * Compiled once, at the first call: XS compiles a regular expression literal each time it is evaluated (a chunk
 * allocation and, in the simulator, a read of /proc/self/maps for the C stack's limit), and the HTTP port splits
 * every request's URL. Not at the module's top level: a pattern made there is preloaded into flash on a board,
 * and XS matches a preloaded pattern in a temporary (a preloaded build crashed in `fx_RegExp_prototype_exec`).
 */
let urlPattern: RegExp | undefined;

/** Splits `url`; throws AgentError `config.invalid` on anything else (a bad port included). */
export function splitUrl(url: string): UrlParts {
  const match = (urlPattern ??= /^(?:http|ws)(s?):\/\/(\[[^\]]+\]|[^/:?#\s]+)(?::(\d{1,5}))?(\/\S*)?$/i).exec(url);
  const port = Number(match?.[3] ?? (match?.[1] ? 443 : 80));
  if (!match || !(port > 0 && port < 65536)) throw new AgentError('config.invalid', `url: invalid: ${url}`);
  const host = match[2]!;
  // A bracketed IPv6 address (the pattern's first alternative) loses its brackets.
  return { secure: match[1] !== '', host: host[0] === '[' ? host.slice(1, -1) : host, port, path: match[4] ?? '/' };
}
