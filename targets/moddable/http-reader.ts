/**
 * One HTTP/1.1 response, read from the bytes as they arrive (a push parser,
 * STYLE.md practice 5): the status line, the headers, and a body delimited by
 * `Content-Length`, by `Transfer-Encoding: chunked` (RFC 9112 section 7.1;
 * chunk extensions and trailers are skipped) or by the close of the connection.
 * `keepAlive` says whether the connection may carry the next request: HTTP/1.1
 * without `Connection: close`, and a delimited body. Anything malformed throws
 * AgentError `network` naming what (the connection is then unusable); a line
 * (status, header, chunk size), the headers and the body are bounded
 * (MAX_LINE_BYTES, MAX_HEADERS, MAX_BODY_BYTES). An interim 1xx answer is skipped.
 */
import { AgentError } from '../../src/errors.js';

/** The bound of one line of the head or of a chunk's size. */
export const MAX_LINE_BYTES = 2048;
/** The bound of the number of header lines. */
export const MAX_HEADERS = 64;
/** The bound of a body (the configuration of 32 channels is about 12 KB). */
export const MAX_BODY_BYTES = 65_536;

export interface ResponseReader {
  /** 0 until the status line arrived. */
  readonly status: number;
  /** Header names in lower case; a repeated header's values joined with ", ". */
  readonly headers: Record<string, string>;
  readonly keepAlive: boolean;
  /** Whether the whole response has arrived. */
  readonly done: boolean;
  /** Reads `bytes`; throws AgentError `network` on a malformed or oversized answer, or bytes after its end. */
  push(bytes: Uint8Array): void;
  /** The connection closed: ends a body read to the close, else throws (the answer is incomplete). */
  end(): void;
  /** The body's bytes, once done. */
  body(): Uint8Array;
}

// What is read next: a line (status, header, chunk size, a chunk's CRLF, trailer), then body bytes, then nothing.
const STATUS = 0;
const HEADER = 1;
const SIZE = 2;
const CHUNK_END = 3;
const TRAILER = 4;
const DATA = 5;
const DONE = 6;

/** `malformed <what>: <the text, cut>`, or `<what>` alone. */
const fail = (what: string, text?: string): AgentError =>
  new AgentError('network', text === undefined ? what : `malformed ${what}: ${text.slice(0, 40)}`);

export function responseReader(): ResponseReader {
  let state = STATUS;
  let line = '';
  /** Bytes left in the body or the chunk; -1: to the close. */
  let left = 0;
  let chunked = false;
  const parts: Uint8Array[] = [];
  let size = 0;
  let count = 0;

  const onLine = (): void => {
    const text = line.replace(/\r$/, '');
    line = '';
    if (state === STATUS) {
      const match = /^HTTP\/1\.([01]) (\d\d\d)( |$)/.exec(text);
      if (!match) throw fail('status line', text);
      r.keepAlive = match[1] === '1';
      r.status = Number(match[2]);
      state = HEADER;
    } else if (state === HEADER) {
      const colon = text.indexOf(':');
      if (text === '') head();
      else if (colon < 1) throw fail('header', text);
      else if (++count > MAX_HEADERS) throw fail(`over ${MAX_HEADERS} headers`);
      else {
        const name = text.slice(0, colon).trim().toLowerCase();
        const had = r.headers[name];
        r.headers[name] = (had === undefined ? '' : had + ', ') + text.slice(colon + 1).trim();
      }
    } else if (state === SIZE) {
      if (!/^[0-9a-f]{1,7}([ \t;]|$)/i.test(text)) throw fail('chunk size', text);
      left = parseInt(text, 16);
      state = left > 0 ? DATA : TRAILER;
    } else if (state === CHUNK_END) {
      if (text !== '') throw fail('chunk end', text);
      state = SIZE;
    } else if (text === '') state = DONE;
  };

  // The blank line after the headers: how the body is delimited.
  const head = (): void => {
    const { status, headers } = r;
    const connection = headers.connection ?? '';
    const length = headers['content-length'];
    if (status < 200) {
      r.headers = {};
      state = STATUS;
      return;
    }
    if (/close/i.test(connection)) r.keepAlive = false;
    if (/keep-alive/i.test(connection)) r.keepAlive = true;
    state = DATA;
    if (status === 204 || status === 304) state = DONE;
    else if (/chunked/i.test(headers['transfer-encoding'] ?? '')) {
      chunked = true;
      state = SIZE;
    } else if (length !== undefined) {
      if (!/^\d{1,9}$/.test(length)) throw fail('content-length', length);
      left = Number(length);
      if (left === 0) state = DONE;
    } else {
      left = -1;
      r.keepAlive = false;
    }
  };

  const r = {
    status: 0,
    headers: {} as Record<string, string>,
    keepAlive: true,
    get done() {
      return state === DONE;
    },
    push(bytes: Uint8Array): void {
      for (let i = 0; i < bytes.length;) {
        if (state === DONE) throw fail('bytes after the answer');
        if (state === DATA) {
          const n = left < 0 ? bytes.length - i : Math.min(left, bytes.length - i);
          if ((size += n) > MAX_BODY_BYTES) throw fail(`answer over ${MAX_BODY_BYTES} B`);
          parts.push(bytes.slice(i, (i += n)));
          if (left > 0 && (left -= n) === 0) state = chunked ? CHUNK_END : DONE;
        } else {
          const b = bytes[i++]!;
          if (b === 10) onLine();
          else if ((line += String.fromCharCode(b)).length > MAX_LINE_BYTES)
            throw fail(`line over ${MAX_LINE_BYTES} B`);
        }
      }
    },
    end(): void {
      if (state === DATA && left < 0) state = DONE;
      if (state !== DONE) throw fail('closed before the whole answer');
    },
    body(): Uint8Array {
      const body = new Uint8Array(size);
      let at = 0;
      for (const part of parts) {
        body.set(part, at);
        at += part.length;
      }
      return body;
    },
  };
  return r;
}
