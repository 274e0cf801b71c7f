/**
 * One HTTP/1.1 answer, read from the bytes its connection has received so far
 * (the first byte is the answer's). `readAnswer` gives undefined while the
 * answer is incomplete and the whole answer once it is: the status line, the
 * headers, and a body delimited by `Content-Length`, by `Transfer-Encoding:
 * chunked` (RFC 9112 section 7.1; chunk extensions and trailers are skipped) or,
 * with `closed`, by the close of the connection. An interim 1xx answer is
 * skipped. `keep` says whether the connection may carry the next request:
 * HTTP/1.1 without `Connection: close` (or 1.0 with `keep-alive`), and a
 * delimited body.
 *
 * Anything malformed throws AgentError `network` naming what (the connection
 * is then unusable), bytes after the answer included. The client (http.ts)
 * bounds the whole answer (MAX_ANSWER_BYTES) before reading it.
 */
import { AgentError } from '../../src/errors.js';

/** The bound of an answer, head and body (the configuration of 32 channels is about 12 KB). */
export const MAX_ANSWER_BYTES = 73_728;

export interface Answer {
  status: number;
  /** Names in lower case; a repeated header's values joined with ", ". */
  headers: Record<string, string>;
  body: Uint8Array;
  keep: boolean;
}

// Compiled once, at the first answer (url.ts says why not at the module's top level): an answer is read again
// with every fragment that arrives.
let statusLine: RegExp | undefined;
let chunkSize: RegExp | undefined;
let digits: RegExp | undefined;

/** `malformed <what>: <the text, cut>`. */
const bad = (what: string, text: string): AgentError =>
  new AgentError('network', `malformed ${what}: ${text.slice(0, 40)}`);

/** The text of `b` from `from` to `to` (UTF-8), decoded in place (XS's `fromArrayBuffer` takes an offset and a length). */
export const text = (b: Uint8Array, from: number, to: number): string =>
  (
    String as unknown as { fromArrayBuffer(b: ArrayBufferLike, offset: number, length: number): string }
  ).fromArrayBuffer(b.buffer, b.byteOffset + from, to - from);

/** Where the next CR LF in `b` starts, from `at`; -1 when none has arrived. */
function eol(b: Uint8Array, at: number): number {
  for (; at + 1 < b.length; at++) if (b[at] === 13 && b[at + 1] === 10) return at;
  return -1;
}

/** The answer in `b` from `at`, or undefined while incomplete; `closed`: no more bytes will come. */
export function readAnswer(b: Uint8Array, closed: boolean, at = 0): Answer | undefined {
  // The head ends at the first empty line.
  let end = at;
  while ((end = eol(b, end)) >= 0 && eol(b, end + 2) !== end + 2) end += 2;
  if (end < 0) return undefined;
  const [line, ...fields] = text(b, at, end).split('\r\n');
  const match = (statusLine ??= /^HTTP\/1\.([01]) (\d\d\d)( |$)/).exec(line!);
  if (!match) throw bad('status line', line!);
  const status = Number(match[2]);
  const headers: Record<string, string> = {};
  for (const field of fields) {
    const colon = field.indexOf(':');
    if (colon < 1) throw bad('header', field);
    const name = field.slice(0, colon).trim().toLowerCase();
    const value = field.slice(colon + 1).trim();
    headers[name] = name in headers ? `${headers[name]}, ${value}` : value;
  }
  at = end + 4;
  if (status < 200) return readAnswer(b, closed, at);
  const connection = (headers.connection ?? '').toLowerCase();
  const length = headers['content-length'];
  let keep = connection.includes('keep-alive') || (match[1] === '1' && !connection.includes('close'));
  let body = b.subarray(at, at);
  if (status === 204 || status === 304) {
    // no body
  } else if ((headers['transfer-encoding'] ?? '').toLowerCase().includes('chunked')) {
    // The chunks' data, copied together (never longer than the bytes received).
    const data = new Uint8Array(b.length);
    let size = 1;
    let n = 0;
    for (let nl; size;) {
      if ((nl = eol(b, at)) < 0) return undefined;
      const line = text(b, at, nl);
      if (!(chunkSize ??= /^[0-9a-f]{1,7}([ \t;]|$)/i).test(line)) throw bad('chunk size', line);
      size = parseInt(line, 16);
      at = nl + 2;
      if (size) {
        if (b.length < at + size + 2) return undefined;
        data.set(b.subarray(at, (at += size)), n);
        n += size;
        if (b[at] !== 13 || b[at + 1] !== 10) throw bad('chunk end', text(b, at, at + 2));
        at += 2;
      }
    }
    // Trailer lines, up to the empty one.
    for (let nl; (nl = eol(b, at)) !== at; at = nl + 2) if (nl < 0) return undefined;
    at += 2;
    body = data.subarray(0, n);
  } else if (length !== undefined) {
    if (!(digits ??= /^\d{1,9}$/).test(length)) throw bad('content-length', length);
    if (b.length < at + Number(length)) return undefined;
    body = b.subarray(at, (at += Number(length)));
  } else if (closed) {
    keep = false;
    body = b.subarray(at, (at = b.length));
  } else return undefined;
  if (at < b.length) throw bad('answer, bytes after its end', text(b, at, b.length));
  return { status, headers, body, keep };
}
