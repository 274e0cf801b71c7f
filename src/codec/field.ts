/**
 * The one reader and writer of bus data (decisions.md section 2): a channel's
 * `dataType`, `dataOrder`, `dataOffset` and `dataSize` (bits) applied to a data
 * window (Modbus: the registers or coils read from `registerAddress` on; CAN:
 * the frame payload). It handles RAW values; gain and offset are the agent's
 * (src/codec/scale.ts).
 *
 * Bit numbering. The two orders are mirror images, so that `littleEndian` is
 * the full reverse of the `bigEndian` byte string:
 * - `bigEndian`: bit 0 of the window is the most significant bit of byte 0, and
 *   the field's first bit is its most significant (Modbus registers, Motorola);
 * - `littleEndian`: bit 0 of the window is the least significant bit of byte 0,
 *   and the field's first bit is its least significant (J1939, Intel).
 * A `packed` window holds one bit per address, least significant bit first
 * (coils, discrete inputs): bit k is bit k & 7 of byte k >> 3 in both orders,
 * and the order only says which end of the field comes first.
 *
 * Values: bool is any set bit; intN / uintN are two's complement / unsigned
 * over `dataSize` bits (sign-extended from the field's own top bit); 64-bit
 * integers a double cannot hold exactly are decimal strings; float32, float64
 * and siemensTotalType (taken to be a float64) are IEEE-754, and a NaN or
 * infinity fails with -ERANGE. Writing takes a boolean (or 0 / 1), a number
 * (rounded for integer types) or a decimal string (integer types), and refuses
 * anything else (-EINVAL) or beyond what the field holds (-ERANGE).
 * Failures are shared constants, returned, never thrown; a field travels as
 * two unsigned 32-bit halves, so reading allocates nothing below 53 bits.
 */
import type { Value } from '../agent/driver.js';
import type { DataLayout, DataType } from '../config/model.js';
import { Errno } from '../errno.js';

/** Why a bus value was not read or written; it is also an error Sample. */
export interface Failure {
  readonly ok: false;
  /** Negative POSIX error number (decisions.md section 4). */
  readonly errno: number;
  readonly reason: string;
}

export const failure = (errno: number, reason: string): Failure => ({ ok: false, errno, reason });
/** A value outside its field's range, or a float that is not finite. */
export const OUT_OF_RANGE = failure(Errno.ERANGE, 'out of range');
/** A desired value of the wrong JSON type for the field. */
export const WRONG_TYPE = failure(Errno.EINVAL, 'wrong type');
/** The field does not fit the data that arrived (a short CAN frame). */
export const SHORT_DATA = failure(Errno.EIO, 'short data');

/** A decoded raw value, or why there is none. */
export type Decoded = Value | Failure;

export function isFailure(x: Decoded): x is Failure {
  return typeof x === 'object';
}

/** A field of up to 64 bits: `hi` holds bits 32..63, `lo` bits 0..31, both unsigned. */
export interface Bits64 {
  hi: number;
  lo: number;
}

/** intN, uintN. */
export const isIntegerType = (type: DataType): boolean => type.includes('int');
const isSigned = (type: DataType): boolean => type.startsWith('int');

/**
 * True when `sizeBits` bits at `offsetBits` lie inside a window of `windowBytes`
 * bytes (the channel list's parser bounds the field: offset >= 0, size 1 to 64).
 */
export function fitsWindow(windowBytes: number, offsetBits: number, sizeBits: number): boolean {
  return offsetBits + sizeBits <= windowBytes * 8;
}

/** Window bit (byte index * 8 + shift) of the field bit of significance `s`. */
function bitOf(offsetBits: number, sizeBits: number, s: number, big: boolean, packed: boolean): number {
  const p = big ? offsetBits + sizeBits - 1 - s : offsetBits + s;
  return big && !packed ? p ^ 7 : p;
}

/** Reads a field (checked with `fitsWindow` first) into `out`. */
export function readBits(
  window: Uint8Array,
  offsetBits: number,
  sizeBits: number,
  big: boolean,
  out: Bits64,
  packed = false,
): Bits64 {
  let hi = 0;
  let lo = 0;
  if (((offsetBits | sizeBits) & 7) === 0 && !(big && packed)) {
    // Whole bytes (most registers and J1939 fields): a byte at a time, least significant first.
    const first = offsetBits >> 3;
    const n = sizeBits >> 3;
    for (let k = 0; k < n; k++) {
      const b = window[big ? first + n - 1 - k : first + k] ?? 0;
      if (k < 4) lo |= b << (8 * k);
      else hi |= b << (8 * (k - 4));
    }
  } else {
    for (let s = 0; s < sizeBits; s++) {
      const p = bitOf(offsetBits, sizeBits, s, big, packed);
      if ((((window[p >> 3] ?? 0) >> (p & 7)) & 1) === 0) continue;
      if (s < 32) lo |= 1 << s;
      else hi |= 1 << (s - 32);
    }
  }
  out.hi = hi >>> 0;
  out.lo = lo >>> 0;
  return out;
}

const scratchBits: Bits64 = { hi: 0, lo: 0 };
// Made at first use: a board preloads the firmware's module into flash, where a buffer made at load is read-only.
let scratchView: DataView | undefined;
const floats = (): DataView => (scratchView ??= new DataView(new ArrayBuffer(8)));

/** Decodes the layout's field of `window`, its offset counted from window bit `atBits`. */
export function decodeData(window: Uint8Array, layout: DataLayout, atBits = 0, packed = false): Decoded {
  const offset = layout.dataOffsetBits + atBits;
  const size = layout.dataSizeBits;
  if (!fitsWindow(window.length, offset, size)) return SHORT_DATA;
  const big = layout.dataOrder === 'bigEndian';
  return decodeBits(readBits(window, offset, size, big, scratchBits, packed), size, layout.dataType);
}

/** Interprets an extracted field (the J1939 reader checks its bits first). */
export function decodeBits({ hi, lo }: Bits64, sizeBits: number, type: DataType): Decoded {
  if (type === 'bool') return (hi | lo) !== 0;
  if (!isIntegerType(type)) {
    // A float32 is the low half (bytes 4..7), a float64 both.
    const view = floats();
    view.setUint32(0, hi);
    view.setUint32(4, lo);
    const x = type === 'float32' ? view.getFloat32(4) : view.getFloat64(0);
    return Number.isFinite(x) ? x : OUT_OF_RANGE;
  }
  const top = sizeBits - 1;
  const negative = isSigned(type) && ((top < 32 ? lo >>> top : hi >>> (top - 32)) & 1) === 1;
  if (sizeBits <= 52) {
    const u = hi * 4294967296 + lo;
    return negative ? u - 2 ** sizeBits : u;
  }
  // 53..64 bits: exact arithmetic, a number only when the double holds it exactly.
  const u = (BigInt(hi) << 32n) | BigInt(lo);
  const v = negative ? u - (1n << BigInt(sizeBits)) : u;
  const n = Number(v);
  return BigInt(n) === v ? n : v.toString();
}

/** Writes `value` as the layout's field of `window`, other bits untouched; a failure or undefined. */
export function encodeData(value: Value, layout: DataLayout, window: Uint8Array, packed = false): Failure | undefined {
  const { dataOffsetBits: offset, dataSizeBits: size } = layout;
  if (!fitsWindow(window.length, offset, size)) return SHORT_DATA;
  const bits = toBits(value, layout.dataType, size);
  if ('errno' in bits) return bits;
  for (let s = 0; s < size; s++) {
    const p = bitOf(offset, size, s, layout.dataOrder === 'bigEndian', packed);
    const mask = 1 << (p & 7);
    const old = window[p >> 3] ?? 0;
    window[p >> 3] = ((s < 32 ? bits.lo >>> s : bits.hi >>> (s - 32)) & 1) === 1 ? old | mask : old & ~mask;
  }
  return undefined;
}

function bits(hi: number, lo: number): Bits64 {
  scratchBits.hi = hi >>> 0;
  scratchBits.lo = lo >>> 0;
  return scratchBits;
}

function toBits(value: Value, type: DataType, sizeBits: number): Bits64 | Failure {
  if (type === 'bool') {
    if (typeof value === 'boolean' || value === 0 || value === 1) return bits(0, Number(value));
    return typeof value === 'number' ? OUT_OF_RANGE : WRONG_TYPE;
  }
  if (!isIntegerType(type)) {
    if (typeof value !== 'number') return WRONG_TYPE;
    const f32 = type === 'float32';
    if (!Number.isFinite(f32 ? Math.fround(value) : value)) return OUT_OF_RANGE;
    // As decodeBits reads them: a float32 in the low half, a float64 across both.
    const view = floats();
    if (f32) view.setFloat32(4, value);
    else view.setFloat64(0, value);
    return bits(f32 ? 0 : view.getUint32(0), view.getUint32(4));
  }
  let v: bigint;
  if (typeof value === 'string' && /^-?[0-9]{1,20}$/.test(value)) v = BigInt(value);
  else if (typeof value !== 'number') return WRONG_TYPE;
  else if (!Number.isFinite(value)) return OUT_OF_RANGE;
  else v = BigInt(Math.round(value));
  const signed = isSigned(type);
  const limit = 1n << BigInt(signed ? sizeBits - 1 : sizeBits);
  if (v < (signed ? -limit : 0n) || v >= limit) return OUT_OF_RANGE;
  const u = BigInt.asUintN(sizeBits, v);
  return bits(Number(u >> 32n), Number(u & 0xffffffffn));
}
