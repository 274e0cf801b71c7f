/**
 * The one error type of the agent. Codes are stable strings; tests assert on
 * codes, never on messages. Throw for programmer misuse; return a result or call
 * `onError` for expected runtime failures (STYLE.md, practice 10).
 */
import type { LogFields, Logger, LogLevel } from './ports.js';

export type ErrorCode =
  /** A configuration record (channel, bus, board setting) failed validation. */
  | 'config.invalid'
  /** A value arriving over a wire (HTTP body, hub message, file) failed validation. */
  | 'wire.invalid'
  /** The service answered with a non-2xx status (see `status`). */
  | 'http.status'
  /** 401 or 403: the token is missing, unknown or not allowed. Not retried blindly. */
  | 'auth'
  /** No response: connection refused, reset, DNS, closed socket. */
  | 'network'
  /** A certificate check failed (names the host and the reason). */
  | 'tls'
  /** Something did not answer in time. */
  | 'timeout'
  /** A bounded buffer or queue refused more. */
  | 'overflow'
  /** A message or record over its size limit. */
  | 'too-large'
  /** The object was closed or stopped. */
  | 'closed'
  /** The key-value store could not read, write or delete an entry (the message names it). */
  | 'store'
  /** A pin or port could not be opened. */
  | 'pin.unavailable'
  /** A feature this target or configuration does not support. */
  | 'unsupported'
  /** A parser refused its input (NMEA checksum, Modbus CRC, JSON). */
  | 'parse'
  /** A hub invocation completed with an error, or the hub refused the connection. */
  | 'hub'
  /** A desired value was rejected (carries `errno`). */
  | 'desired.rejected'
  /** A bug or broken invariant. */
  | 'internal';

export interface AgentErrorOptions {
  /** HTTP status, for `http.status` and `auth`. */
  status?: number;
  /** Negative POSIX error number to report, when there is one. */
  errno?: number;
  /** The wait a 429 or 503 asked for (`Retry-After`), ms. */
  retryAfterMs?: number | undefined;
  cause?: unknown;
}

export class AgentError extends Error {
  /**
   * A class field (defined on the instance), not `this.name = ...`: Moddable
   * firmware freezes Error.prototype, where assigning an inherited read-only
   * `name` throws "set name: not writable" (test/xs/harness.ts models this).
   */
  override readonly name = 'AgentError';
  declare readonly code: ErrorCode;
  declare readonly status: number | undefined;
  declare readonly errno: number | undefined;
  /** The least wait before the next request, from a 429 or 503 `Retry-After` (decisions 10), ms. */
  declare readonly retryAfterMs: number | undefined;
  /** Set by Error itself (ES2022) when the options carry one. */
  declare readonly cause: unknown;

  constructor(code: ErrorCode, message: string, options: AgentErrorOptions = {}) {
    super(message, options);
    // status, errno and retryAfterMs as given (`cause` is Error's own already).
    Object.assign(this, options, { code });
  }
}

/**
 * The wait before the next request after `error`: `delayMs` (a back-off), but
 * at least the `Retry-After` a 429 or 503 asked for (decisions 10).
 */
export function waitAfter(error: AgentError, delayMs: number): number {
  return Math.max(delayMs, error.retryAfterMs ?? 0);
}

/**
 * The `Retry-After` of a 429 or 503 answer in ms: delta-seconds, or an HTTP
 * date taken relative to the answer's own `Date` (the device's clock may be
 * unknown); undefined for other statuses or a header that is neither.
 */
export function retryAfterMs(status: number, headers: Readonly<Record<string, string>>): number | undefined {
  const v = status === 429 || status === 503 ? headers['retry-after'] : undefined;
  if (v === undefined) return undefined;
  if (/^\s*\d+\s*$/.test(v)) return Number(v) * 1000;
  const ms = Date.parse(v) - Date.parse(headers['date'] ?? '');
  return ms === ms ? Math.max(ms, 0) : undefined;
}

/**
 * The error of an HTTP answer that is not 2xx: `auth` for 401 and 403, else `http.status`; with
 * the status and the wait a 429's or 503's `Retry-After` asks for.
 */
export function statusError(status: number, headers: Readonly<Record<string, string>>, message: string): AgentError {
  return new AgentError(status === 401 || status === 403 ? 'auth' : 'http.status', message, {
    status,
    retryAfterMs: retryAfterMs(status, headers),
  });
}

/** True when `e` is an AgentError, optionally with the given code. */
export function isAgentError(e: unknown, code?: ErrorCode): e is AgentError {
  return e instanceof AgentError && (code === undefined || e.code === code);
}

/** Any thrown value as an AgentError (unknown values become `internal`). */
export function toAgentError(e: unknown): AgentError {
  return e instanceof AgentError ? e : new AgentError('internal', messageOf(e), { cause: e });
}

/** The message of any thrown value (an Error's own, else its text): `toAgentError(e).message`, without making an error. */
export const messageOf = (e: unknown): string => (e instanceof Error ? e.message : String(e));

/** Logs an expected failure: `message` at `level`, with `fields` and the reason `e` gives. */
export function logFailure(logger: Logger, level: LogLevel, message: string, e: unknown, fields?: LogFields): void {
  logger.log(level, message, { ...fields, reason: messageOf(e) });
}

/** `logger.log(level, …)` as a function of the logger: shorter at each of the many call sites the firmware links. */
const logAt =
  (level: LogLevel) =>
  (logger: Logger, message: string, fields?: LogFields): void =>
    logger.log(level, message, fields);

/** `logger.log('warn', …)`. */
export const warn = logAt('warn');

/** `logger.log('info', …)`. */
export const info = logAt('info');

/** `logger.log('error', …)`. */
export const error = logAt('error');
