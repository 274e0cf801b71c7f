/**
 * The local service's one error type. Its code is stable (tests assert on it)
 * and picks the HTTP status of the problem response (decisions 6). The
 * service does not share the agent's error type: it reads the specification
 * on its own, so a misreading on one side shows up end to end.
 */
export type ServiceErrorCode =
  /** 400: malformed JSON, an invalid parameter, a rule of the specification broken. */
  | 'invalid'
  /** 401: missing or unknown bearer token. */
  | 'unauthorized'
  /** 403: the token may not do this. */
  | 'forbidden'
  /** 404: unknown entity, route or connection token. */
  | 'not-found'
  /** 405: the route exists for another method. */
  | 'method'
  /** 413: a body over 1 MiB, or a hub record over its limit. */
  | 'too-large'
  /** 416: a `Range` outside the image (firmware downloads). */
  | 'range'
  /** 429: the access token's request budget is spent (with `Retry-After`). */
  | 'rate-limited'
  /** 503: a bounded resource (connections, hub slots, download slots) is full, or storage cannot be written. */
  | 'unavailable'
  /** The fixture (seed file) or an option is invalid; the service does not start. */
  | 'config';

const statusByCode: Readonly<Record<ServiceErrorCode, number>> = {
  invalid: 400,
  unauthorized: 401,
  forbidden: 403,
  'not-found': 404,
  method: 405,
  'too-large': 413,
  range: 416,
  'rate-limited': 429,
  unavailable: 503,
  config: 500,
};

export class ServiceError extends Error {
  override readonly name = 'ServiceError';
  readonly code: ServiceErrorCode;
  readonly status: number;
  /** Whole seconds for the `Retry-After` header of a 429 or 503. */
  readonly retryAfterSeconds: number | undefined;

  constructor(code: ServiceErrorCode, message: string, options: { cause?: unknown; retryAfterSeconds?: number } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.status = statusByCode[code];
    this.retryAfterSeconds = options.retryAfterSeconds;
  }
}

export function isServiceError(e: unknown, code?: ServiceErrorCode): e is ServiceError {
  return e instanceof ServiceError && (code === undefined || e.code === code);
}

/** 400 naming what was wrong. */
export function badRequest(detail: string): ServiceError {
  return new ServiceError('invalid', detail);
}
/** 401: missing or unknown bearer token. */
export function unauthorized(detail: string): ServiceError {
  return new ServiceError('unauthorized', detail);
}
/** 403: the token is not allowed for that entity or operation. */
export function forbidden(detail: string): ServiceError {
  return new ServiceError('forbidden', detail);
}
/** 404: unknown entity or route. */
export function notFound(detail: string): ServiceError {
  return new ServiceError('not-found', detail);
}
