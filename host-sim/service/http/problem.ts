/**
 * HTTP errors as RFC 9457 problem details (decisions 6). Handlers throw the
 * service's one error type, ServiceError; its code picks the HTTP status.
 * Anything else thrown is a 500 whose detail stays generic (the cause is
 * logged by the router, never sent).
 */
import type { ServerResponse } from 'node:http';
import { isServiceError } from '../errors.js';

const titles: Readonly<Record<number, string>> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  413: 'Content Too Large',
  416: 'Range Not Satisfiable',
  429: 'Too Many Requests',
  431: 'Request Header Fields Too Large',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

/** The HTTP status for a thrown value. */
export function statusOf(e: unknown): number {
  if (!isServiceError(e) || e.code === 'config') return 500;
  return e.status;
}

/** The problem+json body for a status and detail. */
export function problemBody(
  status: number,
  detail: string,
): { type: string; status: number; title: string; detail: string } {
  return { type: 'about:blank', status, title: titles[status] ?? 'Error', detail };
}

/** `Retry-After` seconds a thrown value carries (429, 503), if any. */
export function retryAfterOf(e: unknown): number | undefined {
  return isServiceError(e) ? e.retryAfterSeconds : undefined;
}

/** Writes a problem+json response (with `WWW-Authenticate` on 401, `Allow` on 405, `Retry-After` on 429/503). */
export function sendProblem(res: ServerResponse, e: unknown, headers: Record<string, string> = {}): void {
  const status = statusOf(e);
  const detail = status === 500 ? 'internal error' : e instanceof Error ? e.message : String(e);
  const body = JSON.stringify(problemBody(status, detail));
  if (status === 401) headers['WWW-Authenticate'] = 'Bearer';
  const retryAfter = retryAfterOf(e);
  if (retryAfter !== undefined) headers['Retry-After'] = String(retryAfter);
  res.writeHead(status, {
    ...headers,
    'Content-Type': 'application/problem+json',
    'Content-Length': Buffer.byteLength(body),
  });
  res.end(body);
}
