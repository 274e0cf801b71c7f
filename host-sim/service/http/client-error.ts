/**
 * Malformed HTTP framing (a duplicate Content-Length, a bad request line,
 * headers or a URL over Node's 16 KB header limit, a request that took too
 * long) is answered, not met with a silently closed socket: 431 for headers
 * too large, 408 for a timeout, 400 otherwise, as problem+json, then the
 * connection closes. A socket already gone is only destroyed.
 */
import type { Duplex } from 'node:stream';
import { problemBody } from './problem.js';

const reasons: Readonly<Record<number, string>> = {
  400: 'Bad Request',
  408: 'Request Timeout',
  431: 'Request Header Fields Too Large',
};

/** The status Node's parser error calls for. */
export function clientErrorStatus(code: string | undefined): number {
  if (code === 'HPE_HEADER_OVERFLOW') return 431;
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return 408;
  return 400;
}

/** The `clientError` listener of the HTTP(S) server. */
export function answerClientError(error: Error & { code?: string }, socket: Duplex): void {
  // A response under way (its headers sent) cannot be answered again; one not begun can (a bad chunk size
  // arrives after the headers, while the handler waits for the body).
  const response = (socket as { _httpMessage?: { headersSent?: boolean } | null })._httpMessage;
  if (error.code === 'ECONNRESET' || !socket.writable || response?.headersSent === true) {
    socket.destroy();
    return;
  }
  const status = clientErrorStatus(error.code);
  const detail =
    status === 431
      ? 'request headers (or the URL) over 16 KB'
      : status === 408
        ? 'the request took too long'
        : `malformed HTTP request (${error.code ?? 'parse error'})`;
  const body = JSON.stringify(problemBody(status, detail));
  socket.end(
    `HTTP/1.1 ${status} ${reasons[status] ?? 'Bad Request'}\r\nConnection: close\r\n` +
      `Content-Type: application/problem+json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
}
