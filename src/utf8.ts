/**
 * UTF-8 byte counts of strings, for the byte bounds of the wire formats (hub
 * records, report batches, stored entries). Without TextEncoder, which XS lacks.
 */

/**
 * UTF-8 length of a string, without TextEncoder (absent on XS); with `into`, the
 * string's UTF-8 is also written there from `at`, and the end is returned (a lone
 * surrogate takes 3 bytes either way). Iterates by code point: on XS
 * `charCodeAt(i)` costs O(i) on non-ASCII strings (no position cache in device
 * builds), which made an indexed loop quadratic there.
 */
export function utf8Length(text: string, into?: Uint8Array, at = 0): number {
  for (const ch of text) {
    const c = ch.codePointAt(0)!; // a string's iterator yields whole code points
    // Continuation bytes after the lead: 0 to 3.
    const n = c < 0x80 ? 0 : c < 0x800 ? 1 : c < 0x10000 ? 2 : 3;
    if (into) {
      into[at] = n ? ((0xf0 << (3 - n)) & 0xf0) | (c >> (6 * n)) : c;
      for (let i = 1; i <= n; i++) into[at + i] = 0x80 | ((c >> (6 * (n - i))) & 0x3f);
    }
    at += n + 1;
  }
  return at;
}

/** Cheap bound check: exact UTF-8 counting only when the string might be over. */
export function exceedsBytes(text: string, maxBytes: number): boolean {
  if (text.length * 3 <= maxBytes) return false;
  if (text.length > maxBytes) return true;
  return utf8Length(text) > maxBytes;
}
