/**
 * Options of the hub client: the ports it runs on, the token provider, and
 * every timing and size bound, with the defaults of spec 4.8 and docs/realtime.md
 * (Ping after 15 s without sending, server gone after 30 s of silence, 64 KB
 * records) resolved in one place.
 */
import type { Clock, HttpTransport, Logger, WebSocketFactory } from '../ports.js';
import { fullJitter, type RetryPolicy } from '../retry/backoff.js';

export interface HubClientOptions {
  /** Service base URL, `http(s)://host[:port][/prefix]`; the hub is `{base}/hubs/properties`. */
  baseUrl: string;
  /** Read before every negotiate, so a renewed token is picked up on the next reconnect. */
  accessToken: () => string | Promise<string>;
  http: HttpTransport;
  sockets: WebSocketFactory;
  clock: Clock;
  logger: Logger;
  /**
   * Told each connection token a negotiate hands out, before it is used, so a
   * redacting logger can hide it (docs/tls.md). Default: nothing.
   */
  onSecret?: (connectionToken: string) => void;
  /** Delay before reconnect attempt n (null: stop). Default: fullJitter (1 s doubling to 60 s), forever. */
  retry?: RetryPolicy;
  /** After a 401/403 (`auth`), the next attempt waits this long instead. Default 600000 (10 min). */
  authRetryMs?: number;
  /** A Ping is sent when nothing was sent for this long. Default 15000. */
  pingIntervalMs?: number;
  /** The server is gone after this long without receiving anything (also the handshake's deadline). Default 30000. */
  serverTimeoutMs?: number;
  /** Largest incoming record; a larger one drops the connection. Default 65536. */
  maxReceiveBytes?: number;
}

/**
 * The defaults (spec 4.8 and docs/realtime.md), each read where its option is (`o.x ?? hubDefaults.x`): no
 * resolved copy of the options is kept.
 */
export const hubDefaults = {
  authRetryMs: 600000,
  pingIntervalMs: 15000,
  serverTimeoutMs: 30000,
  maxReceiveBytes: 65536,
} as const;

/** The default retry policy (fullJitter: 1 s doubling to 60 s, forever); stateless, so clients share it. */
export const hubRetry = fullJitter();
