/**
 * The socket of the SDK's `websocket` Client (the hub's), guarded so that no
 * failure of the network can abort the machine; and `closeQuietly`, which our
 * HTTP client (http.ts) uses too.
 *
 * Why: that module writes, parses and closes from inside the socket's callback,
 * and an exception thrown there has no JavaScript caller: XS aborts with
 * "unhandled exception". The SDK throws there in ordinary outages. On Linux a
 * refused connection is first reported as connected (the non-blocking connect
 * selects writable), then its `write` throws "write failed"; closing a
 * socket the peer already closed throws "close on closed socket"; a malformed
 * status line throws "unexpected status format". `SecureSocket` catches its own
 * TLS errors but then calls back (and closes) outside its guard.
 *
 * `socketOptions` gives the module's dictionary (the SDK's TCP `Socket`, or
 * `SecureSocket` for https/wss). Once the module is built, its adapter wraps the
 * callback it gave its socket (`module.socket`, set in its constructor; the
 * socket calls back only from the event loop, later; websocket.ts): whatever
 * that callback throws closes the module (and its socket, once: `closeQuietly`)
 * and becomes an ordinary delivery failure; the socket's later callbacks are
 * dropped. Our HTTP client (http.ts) owns its socket's callback and guards it itself.
 */
import SecureSocket from 'securesocket';
import { splitUrl } from './url.js';

/** Closes an SDK module, if any; one the peer already closed throws "close on closed socket", ignored. */
export function closeQuietly(module: { close(): void } | undefined): void {
  try {
    module?.close();
  } catch {
    // already closed underneath
  }
}

/** The SDK dictionary for one connection; the adapter adds its own entries (method, body, ...). */
export interface SocketOptions extends Record<string, unknown> {
  host: string;
  port: number;
  path: string;
  /** Flat `[name, value, ...]`, the form both modules take. */
  headers: string[];
  secure?: Record<string, unknown>;
}

/**
 * The dictionary of the SDK's `http` Request or `websocket` Client for `url`
 * with `headers`: over the SDK's TCP `Socket`, or for https/wss over
 * `SecureSocket` with the `secure` dictionary (boot.ts). Throws like `splitUrl`.
 */
export function socketOptions(
  url: string,
  headers: Readonly<Record<string, string>>,
  secure: Record<string, unknown>,
): SocketOptions {
  const { host, port, path, secure: tls } = splitUrl(url);
  const flat: string[] = [];
  for (const name in headers) flat.push(name, headers[name] ?? '');
  const options: SocketOptions = { host, port, path, headers: flat };
  if (tls) Object.assign(options, { Socket: SecureSocket, secure });
  return options;
}
