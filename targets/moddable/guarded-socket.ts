/**
 * The socket the SDK's `http` Request and `websocket` Client drive in place of
 * their own (both take a `Socket` class in their options), so that no failure of
 * the network can abort the machine.
 *
 * Why: those modules write, parse and close from inside the socket's callback,
 * and an exception thrown there has no JavaScript caller: XS aborts with
 * "unhandled exception". The SDK throws there in ordinary outages. On Linux a
 * refused connection is first reported as connected (the non-blocking connect
 * selects writable), then the request's `write` throws "write failed"; closing a
 * socket the peer already closed throws "close on closed socket"; a malformed
 * status line throws "unexpected status format". `SecureSocket` catches its own
 * TLS errors but then calls back (and closes) outside its guard.
 *
 * This class passes every call through to the real socket (`Socket`, or the
 * `Inner` class given, e.g. `SecureSocket`) and runs the module's callback
 * inside a guard: whatever it throws closes the socket and is handed once to
 * `onFault`, which the adapter turns into an ordinary delivery failure. `close`
 * never throws.
 */
import SecureSocket from 'securesocket';
import { Socket } from 'socket';
import { splitUrl } from './url.js';

/** What the SDK's socket classes call back with: message, then a value. */
export type SocketCallback = (message: number, value?: unknown, extra?: unknown) => unknown;

export interface RealSocket {
  callback: SocketCallback;
  read(...args: unknown[]): unknown;
  write(...args: unknown[]): unknown;
  close(): void;
}

export type SocketClass = new (dictionary: Record<string, unknown>) => RealSocket;

/** The `guard` entry of the dictionary the modules pass to the socket constructor. */
export interface GuardOptions {
  /** The socket underneath; default the SDK's `Socket` (TCP). */
  Inner?: SocketClass;
  /** Called at most once, with what the module's callback threw. */
  onFault(error: unknown): void;
}

/** The message of what an SDK module threw, for the log. */
export function describe(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

export class GuardedSocket {
  readonly #inner: RealSocket;
  readonly #onFault: (error: unknown) => void;
  #handler: SocketCallback | undefined;
  #open = true;

  /** Throws what the real socket's constructor throws (bad host, no memory, bad TLS settings). */
  constructor(dictionary: Record<string, unknown>) {
    const guard = dictionary.guard as GuardOptions;
    this.#onFault = guard.onFault;
    this.#inner = new (guard.Inner ?? (Socket as unknown as SocketClass))(dictionary);
    this.#inner.callback = (message, value, extra) => this.#deliver(message, value, extra);
  }

  /** The module's callback (http and websocket assign it after construction and never read it back). */
  set callback(handler: SocketCallback | undefined) {
    this.#handler = handler;
  }

  read(...args: unknown[]): unknown {
    return this.#inner.read(...args);
  }

  /** Passes through: a throw here reaches the module, whose callback throws it on to the guard. */
  write(...args: unknown[]): unknown {
    if (!this.#open) throw new Error('write on closed socket');
    return this.#inner.write(...args);
  }

  /** Closes the real socket once; never throws ("close on closed socket": the peer or the SDK closed it first). */
  close(): void {
    if (!this.#open) return;
    this.#open = false;
    try {
      this.#inner.close();
    } catch {
      // already closed underneath
    }
  }

  #deliver(message: number, value: unknown, extra: unknown): unknown {
    if (!this.#open || this.#handler === undefined) return undefined;
    try {
      return this.#handler(message, value, extra);
    } catch (e) {
      // A fault: closed first, then handed once to the adapter; nothing of it may escape to the socket.
      if (this.#open) {
        this.close();
        try {
          this.#onFault(e);
        } catch {
          // the adapter's handler settles a promise
        }
      }
      return undefined;
    }
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
 * The dictionary of the SDK's `http` Request or `websocket` Client for `url` with
 * `headers`, on a GuardedSocket whose faults go to
 * `onFault`: over the SDK's TCP `Socket`, or for https/wss over `SecureSocket`
 * with the `secure` dictionary (boot.ts). Throws like `splitUrl`.
 */
export function socketOptions(
  url: string,
  headers: Readonly<Record<string, string>>,
  secure: Record<string, unknown>,
  onFault: (error: unknown) => void,
): SocketOptions {
  const parts = splitUrl(url);
  const flat: string[] = [];
  for (const name in headers) flat.push(name, headers[name] ?? '');
  const guard: GuardOptions = { onFault };
  const { host, port, path } = parts;
  const options: SocketOptions = { host, port, path, headers: flat, Socket: GuardedSocket, guard };
  if (parts.secure) {
    guard.Inner = SecureSocket as unknown as SocketClass;
    options.secure = secure;
  }
  return options;
}
