/**
 * `siemensTotalType` (decisions.md section 2): the totalizer of SITRANS F flow
 * meters, taken to be an IEEE-754 float64 in 8 bytes (4 registers), in the
 * channel's data order. This is an assumption; it lives here and nowhere else,
 * so a correction is one edit.
 */
import type { Bits64 } from './bits.js';

/** Width of the type in bits. */
export const SIEMENS_TOTAL_BITS = 64;

const scratch = new DataView(new ArrayBuffer(8));

/** The totalizer value of a 64-bit field (already ordered by readBits). */
export function decodeSiemensTotal(bits: Bits64): number {
  scratch.setUint32(0, bits.hi);
  scratch.setUint32(4, bits.lo);
  return scratch.getFloat64(0);
}

/** The field bits of a totalizer value, into `out`. */
export function encodeSiemensTotal(value: number, out: Bits64): Bits64 {
  scratch.setFloat64(0, value);
  out.hi = scratch.getUint32(0);
  out.lo = scratch.getUint32(4);
  return out;
}
