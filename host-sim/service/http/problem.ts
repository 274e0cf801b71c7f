/**
 * HTTP errors as RFC 9457 problem details (decisions 6). Handlers throw the
 * project's one error type, AgentError; its code (and status) picks the HTTP
 * status: wire.invalid 400, auth 401/403, http.status its status, too-large 413.
 */
import type { ServerResponse } from 'node:http';
import { AgentError, isAgentError } from '../../../src/errors.js';

const titles: Readonly<Record<number, string>> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  413: 'Content Too Large',
  500: 'Internal Server Error',
};

/** 400: malformed JSON, an invalid parameter, both of two exclusive parameters. */
export function badRequest(detail: string): AgentError {
  return new AgentError('wire.invalid', detail, { status: 400 });
}
/** 401: missing or unknown bearer token. */
export function unauthorized(detail: string): AgentError {
  return new AgentError('auth', detail, { status: 401 });
}
/** 403: the token is not allowed for that entity or operation. */
export function forbidden(detail: string): AgentError {
  return new AgentError('auth', detail, { status: 403 });
}
/** 404: unknown entity or route. */
export function notFound(detail: string): AgentError {
  return new AgentError('http.status', detail, { status: 404 });
}

/** The HTTP status for a thrown value. */
export function statusOf(e: unknown): number {
  if (!isAgentError(e)) return 500;
  if (e.code === 'wire.invalid' || e.code === 'config.invalid' || e.code === 'parse') return 400;
  if (e.code === 'too-large') return 413;
  return e.status ?? 500;
}

/** The problem+json body for a status and detail. */
export function problemBody(
  status: number,
  detail: string,
): { type: string; status: number; title: string; detail: string } {
  return { type: 'about:blank', status, title: titles[status] ?? 'Error', detail };
}

/** Writes a problem+json response (with `WWW-Authenticate` on 401, `Allow` on 405). */
export function sendProblem(res: ServerResponse, e: unknown, headers: Record<string, string> = {}): void {
  const status = statusOf(e);
  const detail = status === 500 ? 'internal error' : e instanceof Error ? e.message : String(e);
  const body = JSON.stringify(problemBody(status, detail));
  if (status === 401) headers['WWW-Authenticate'] = 'Bearer';
  res.writeHead(status, {
    ...headers,
    'Content-Type': 'application/problem+json',
    'Content-Length': Buffer.byteLength(body),
  });
  res.end(body);
}
