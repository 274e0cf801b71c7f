/**
 * Bit fields of up to 64 bits inside a data window (decisions.md section 2).
 *
 * `dataOffset` and `dataSize` count bits into the window. The two orders are
 * mirror images, so that `littleEndian` is the full reverse of the `bigEndian`
 * byte string:
 * - `bigEndian`: bit 0 of the window is the most significant bit of byte 0, and
 *   the field's first bit is its most significant (Modbus registers, Motorola).
 * - `littleEndian`: bit 0 of the window is the least significant bit of byte 0,
 *   and the field's first bit is its least significant (J1939, Intel).
 * A `packed` window holds one bit per address, least significant bit first
 * (Modbus coils and discrete inputs): bit k is bit k & 7 of byte k >> 3 in both
 * orders, and the order only says whether the field's first bit is its most
 * (`bigEndian`) or least significant.
 * A field is carried as two unsigned 32-bit halves so that nothing allocates.
 */
import type { DataOrder } from '../config/model.js';

/** A field of up to 64 bits: `hi` holds bits 32..63, `lo` bits 0..31, both unsigned. */
export interface Bits64 {
  hi: number;
  lo: number;
}

/** True when `sizeBits` bits at `offsetBits` lie inside a window of `windowBytes` bytes. */
export function fitsWindow(windowBytes: number, offsetBits: number, sizeBits: number): boolean {
  return offsetBits >= 0 && sizeBits >= 1 && sizeBits <= 64 && offsetBits + sizeBits <= windowBytes * 8;
}

/**
 * Window bit of the field bit of significance `s` (0 = least significant), as
 * byte index * 8 + shift inside the byte.
 */
function bitOf(offsetBits: number, sizeBits: number, s: number, order: DataOrder, packed: boolean): number {
  const big = order === 'bigEndian';
  const p = big ? offsetBits + sizeBits - 1 - s : offsetBits + s;
  return big && !packed ? p ^ 7 : p;
}

/**
 * Reads a field into `out` (reused by the caller). The caller checks
 * `fitsWindow` first; bits outside the window read as 0.
 */
export function readBits(
  window: Uint8Array,
  offsetBits: number,
  sizeBits: number,
  order: DataOrder,
  out: Bits64,
  packed = false,
): Bits64 {
  const big = order === 'bigEndian';
  if ((offsetBits & 7) !== 0 || (sizeBits & 7) !== 0 || (big && packed)) {
    return readBitByBit(window, offsetBits, sizeBits, order, out, packed);
  }
  // Whole bytes (the common case): one step per byte, least significant byte first.
  let hi = 0;
  let lo = 0;
  const first = offsetBits >> 3;
  const n = sizeBits >> 3;
  for (let k = 0; k < n; k++) {
    const b = window[big ? first + n - 1 - k : first + k] ?? 0;
    if (k < 4) lo = (lo | (b << (8 * k))) >>> 0;
    else hi = (hi | (b << (8 * (k - 4)))) >>> 0;
  }
  out.hi = hi;
  out.lo = lo;
  return out;
}

/** `readBits` of a field that does not cover whole bytes (kept apart so that `readBits` stays small). */
function readBitByBit(
  window: Uint8Array,
  offsetBits: number,
  sizeBits: number,
  order: DataOrder,
  out: Bits64,
  packed: boolean,
): Bits64 {
  let hi = 0;
  let lo = 0;
  for (let s = 0; s < sizeBits; s++) {
    const p = bitOf(offsetBits, sizeBits, s, order, packed);
    if ((((window[p >> 3] ?? 0) >> (p & 7)) & 1) === 0) continue;
    if (s < 32) lo = (lo | (1 << s)) >>> 0;
    else hi = (hi | (1 << (s - 32))) >>> 0;
  }
  out.hi = hi;
  out.lo = lo;
  return out;
}

/** Writes the low `sizeBits` bits of (`hi`, `lo`) into the window; other bits stay as they are. */
export function writeBits(
  window: Uint8Array,
  offsetBits: number,
  sizeBits: number,
  order: DataOrder,
  hi: number,
  lo: number,
  packed = false,
): void {
  for (let s = 0; s < sizeBits; s++) {
    const p = bitOf(offsetBits, sizeBits, s, order, packed);
    const mask = 1 << (p & 7);
    const bit = s < 32 ? (lo >>> s) & 1 : (hi >>> (s - 32)) & 1;
    const old = window[p >> 3] ?? 0;
    window[p >> 3] = bit === 1 ? old | mask : old & ~mask;
  }
}
