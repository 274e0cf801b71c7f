/**
 * UTF-8 byte counts of strings, for the byte bounds of the wire formats (hub
 * records, report batches, stored entries). Without TextEncoder, which XS lacks.
 */

/**
 * UTF-8 length of a string, without TextEncoder (absent on XS). Iterates by code
 * point: on XS `charCodeAt(i)` costs O(i) on non-ASCII strings (no position
 * cache in device builds), which made an indexed loop quadratic there.
 */
export function utf8Length(text: string): number {
  let bytes = 0;
  for (const ch of text) {
    const c = ch.codePointAt(0)!; // a string's iterator yields whole code points
    bytes += c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4;
  }
  return bytes;
}

/** Cheap bound check: exact UTF-8 counting only when the string might be over. */
export function exceedsBytes(text: string, maxBytes: number): boolean {
  if (text.length * 3 <= maxBytes) return false;
  if (text.length > maxBytes) return true;
  return utf8Length(text) > maxBytes;
}
