/**
 * Options of the hub client: the ports it runs on, the token provider, and
 * every timing and size bound, with the defaults of spec 4.8 and docs/realtime.md
 * (Ping after 15 s without sending, server gone after 30 s of silence, 32 KB
 * messages) resolved and checked in one place.
 */
import type { Clock, HttpTransport, Logger, WebSocketFactory } from '../ports.js';
import { FullJitterBackoff, type RetryPolicy } from '../retry/backoff.js';

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
   * Told every secret a negotiate hands out (the connection token, and the access
   * token of a redirect) before it is used, so a redacting logger can hide it
   * (docs/tls.md). Default: nothing.
   */
  onSecrets?: (secrets: { connectionToken: string; accessToken: string }) => void;
  /** Delay before reconnect attempt n. Default: FullJitterBackoff (1 s doubling to 60 s), forever. */
  retry?: RetryPolicy;
  /**
   * After a 401/403, the same token is not tried again for this long (default
   * 10 min); a different token from `accessToken` is tried at the next retry.
   */
  authRetryMs?: number;
  /** From opening the socket to the handshake answer. Default 15000. */
  handshakeTimeoutMs?: number;
  /** A Ping is sent when nothing was sent for this long. Default 15000. */
  pingIntervalMs?: number;
  /** The server is gone after this long without receiving anything. Default 30000. */
  serverTimeoutMs?: number;
  /** Default timeout of one invocation. Default 30000. */
  invocationTimeoutMs?: number;
  /** Largest outgoing record, separator included. Default 32768. */
  maxMessageBytes?: number;
  /** Largest incoming record; a larger one drops the connection. Default 65536. */
  maxReceiveBytes?: number;
  /** Invocations awaiting a Completion at once. Default 32. */
  maxPendingInvocations?: number;
}

export type ResolvedHubOptions = Required<HubClientOptions>;

type NumericOption = Exclude<
  keyof HubClientOptions,
  'baseUrl' | 'accessToken' | 'http' | 'sockets' | 'clock' | 'logger' | 'retry' | 'onSecrets'
>;

/** The numeric defaults (spec 4.8 and docs/realtime.md). */
export const hubDefaults: Readonly<Record<NumericOption, number>> = {
  authRetryMs: 600000,
  handshakeTimeoutMs: 15000,
  pingIntervalMs: 15000,
  serverTimeoutMs: 30000,
  invocationTimeoutMs: 30000,
  maxMessageBytes: 32768,
  maxReceiveBytes: 65536,
  maxPendingInvocations: 32,
};

/** Fills in defaults; throws RangeError on a nonsensical setting (programmer misuse). */
export function resolveHubOptions(o: HubClientOptions): ResolvedHubOptions {
  const resolved = {
    ...hubDefaults,
    ...o,
    retry: o.retry ?? new FullJitterBackoff(),
    onSecrets: o.onSecrets ?? ((): void => undefined),
  };
  for (const name of Object.keys(hubDefaults) as NumericOption[]) {
    const value = resolved[name];
    if (!(value > 0 && value < Infinity)) throw new RangeError(`hub client: ${name} must be a positive number`);
  }
  if (!/^https?:\/\//.test(o.baseUrl)) throw new RangeError('hub client: baseUrl must be http(s)://');
  return resolved;
}
