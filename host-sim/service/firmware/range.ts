/**
 * What a `GET /firmware/<name>` answers, from its conditional and range
 * headers (RFC 9110 sections 13 and 14), for an image of `size` bytes whose
 * strong ETag is `etag`:
 * - `If-None-Match` naming the ETag (weak comparison) or `*`: 304.
 * - `Range: bytes=A-B`, `bytes=A-` or `bytes=-N` (one range; B is clamped to
 *   the last byte): 206 with that part; a range starting at or past the end,
 *   or `bytes=-0`, is 416 (`Content-Range: bytes * /size`).
 * - A Range this service does not serve (several ranges, another unit, bad
 *   syntax) is ignored: 200 with the whole image, as RFC 9110 14.2 allows.
 * - `If-Range` that is not the current ETag (strong comparison; a date never
 *   matches, the service sends no Last-Modified) makes the Range ignored: 200,
 *   so a client resuming an image that changed gets the new one whole.
 */

export type Answer = { status: 200 } | { status: 206; start: number; end: number } | { status: 304 } | { status: 416 };

export interface ConditionalHeaders {
  range?: string | undefined;
  ifRange?: string | undefined;
  ifNoneMatch?: string | undefined;
}

/** Byte positions are at most 15 digits (well within a double's exact integers). */
const single = /^bytes\s*=\s*(?:(\d{1,15})\s*-\s*(\d{0,15})|-\s*(\d{1,15}))\s*$/i;

/** The ETags of an `If-None-Match` list, opaque parts only (`W/` dropped: weak comparison). */
function listed(header: string): string[] {
  return header
    .split(',')
    .map((t) => t.trim().replace(/^W\//, ''))
    .filter((t) => t !== '');
}

/** The answer for these headers; `etag` is a quoted strong ETag. */
export function answerFor(h: ConditionalHeaders, size: number, etag: string): Answer {
  if (h.ifNoneMatch !== undefined) {
    const tags = listed(h.ifNoneMatch);
    if (tags.includes('*') || tags.includes(etag)) return { status: 304 };
  }
  if (h.range === undefined) return { status: 200 };
  if (h.ifRange !== undefined && h.ifRange.trim() !== etag) return { status: 200 };
  const m = single.exec(h.range.trim());
  if (m === null) return { status: 200 };
  const [, first, last, suffix] = m;
  if (suffix !== undefined) {
    const n = Number(suffix);
    if (n === 0 || size === 0) return { status: 416 };
    return { status: 206, start: Math.max(0, size - n), end: size - 1 };
  }
  const start = Number(first);
  const open = last === undefined || last === '';
  if (!open && Number(last) < start) return { status: 200 }; // invalid (RFC 9110 14.1.1): ignored
  if (start >= size) return { status: 416 };
  return { status: 206, start, end: open ? size - 1 : Math.min(Number(last), size - 1) };
}
