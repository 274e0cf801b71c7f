/**
 * The data decoder shared by the bus readers (decisions.md section 2): a
 * channel's `dataType`, `dataOrder`, `dataOffset` and `dataSize` (bits) applied
 * to a data window (Modbus: the registers read from `registerAddress` on; CAN:
 * the frame payload). It yields the RAW value; gain and offset are applied
 * elsewhere (src/codec/scale.ts).
 *
 * - bool: any set bit in the field is `true`.
 * - intN / uintN: two's complement / unsigned over `dataSize` bits (a signed
 *   field narrower than its type is sign-extended from its own top bit).
 * - int64 / uint64: a number when the double represents it exactly, else a
 *   decimal string.
 * - float32 / float64 / siemensTotalType: IEEE-754; a NaN or infinity is not a
 *   reportable number and fails with -ERANGE.
 * Failures are returned (shared CodecFailure constants), never thrown.
 */
import type { DataLayout, DataType } from '../config/model.js';
import type { Value } from '../agent/driver.js';
import { Errno } from '../errno.js';
import { fitsWindow, readBits, type Bits64 } from './bits.js';

// ---- Failures: negative POSIX error numbers (decisions.md section 4), shared constants.

/** The failed result of decoding or encoding a bus value; instances are shared, so failing allocates nothing. */
export class CodecFailure {
  constructor(
    /** Negative POSIX error number, e.g. -34 (ERANGE). */
    readonly errno: number,
    /** Why, for logs. */
    readonly reason: string,
  ) {}
}

/** A value outside its data type's range, or a float that is not finite. */
export const OUT_OF_RANGE = new CodecFailure(Errno.ERANGE, 'value out of the data type range');
/** A desired value of the wrong JSON type for the channel (e.g. a string for uint16). */
export const WRONG_TYPE = new CodecFailure(Errno.EINVAL, 'value of the wrong type');
/** The field does not fit the data that arrived (a short CAN frame). */
export const SHORT_DATA = new CodecFailure(Errno.EIO, 'data window shorter than dataOffset + dataSize');
/** J1939: the sender marks the parameter "not available" (all ones). */
export const NOT_AVAILABLE = new CodecFailure(Errno.EOPNOTSUPP, 'J1939 parameter not available');
/** J1939: the sender marks the parameter as in error. */
export const ERROR_INDICATOR = new CodecFailure(Errno.EIO, 'J1939 error indicator');

/** Narrowing helper. */
export function isFailure(x: unknown): x is CodecFailure {
  return x instanceof CodecFailure;
}

/** A decoded raw value, or why there is none. */
export type Decoded = Value | CodecFailure;

const TWO_32 = 4294967296;
const scratchBits: Bits64 = { hi: 0, lo: 0 };
const scratchView = new DataView(new ArrayBuffer(8));

/** True for the integer data types (signed or not). */
export function isIntegerType(type: DataType): boolean {
  return type !== 'bool' && type !== 'float32' && type !== 'float64' && type !== 'siemensTotalType';
}

/** True for the signed integer data types. */
export function isSignedType(type: DataType): boolean {
  return type === 'int8' || type === 'int16' || type === 'int32' || type === 'int64';
}

/** Decodes one field of `window` as the layout says. */
export function decodeData(window: Uint8Array, layout: DataLayout): Decoded {
  const { dataOffsetBits: offset, dataSizeBits: size, dataType: type } = layout;
  if (!fitsWindow(window.length, offset, size)) return SHORT_DATA;
  const bits = readBits(window, offset, size, layout.dataOrder, scratchBits);
  return decodeBits(bits, size, type);
}

/** Interprets an already extracted field (used by the J1939 reader too). */
export function decodeBits(bits: Bits64, sizeBits: number, type: DataType): Decoded {
  switch (type) {
    case 'bool':
      return bits.hi !== 0 || bits.lo !== 0;
    case 'float32':
      scratchView.setUint32(0, bits.lo);
      return finite(scratchView.getFloat32(0));
    case 'float64':
      scratchView.setUint32(0, bits.hi);
      scratchView.setUint32(4, bits.lo);
      return finite(scratchView.getFloat64(0));
    case 'siemensTotalType':
      return finite(decodeSiemensTotal(bits));
    default:
      return decodeInteger(bits, sizeBits, isSignedType(type));
  }
}

function finite(x: number): Decoded {
  return Number.isFinite(x) ? x : OUT_OF_RANGE;
}

function decodeInteger(bits: Bits64, sizeBits: number, signed: boolean): Value {
  const negative = signed && topBitSet(bits, sizeBits);
  if (sizeBits <= 32) {
    return negative ? bits.lo - 2 ** sizeBits : bits.lo;
  }
  if (sizeBits <= 52) {
    const u = bits.hi * TWO_32 + bits.lo;
    return negative ? u - 2 ** sizeBits : u;
  }
  // 53..64 bits: exact arithmetic, a number only when the double holds it exactly.
  const u = (BigInt(bits.hi) << 32n) | BigInt(bits.lo);
  const v = negative ? u - (1n << BigInt(sizeBits)) : u;
  const n = Number(v);
  return BigInt(n) === v ? n : v.toString();
}

function topBitSet(bits: Bits64, sizeBits: number): boolean {
  const s = sizeBits - 1;
  return s < 32 ? ((bits.lo >>> s) & 1) === 1 : ((bits.hi >>> (s - 32)) & 1) === 1;
}

// ---- siemensTotalType (decisions.md section 2): the totalizer of SITRANS F flow meters, taken
// to be an IEEE-754 float64 in 8 bytes (4 registers) in the channel's data order. This is an
// assumption; it lives in these two functions and nowhere else, so a correction is one edit.

const siemensView = new DataView(new ArrayBuffer(8));

/** The totalizer value of a 64-bit field (already ordered by readBits). */
export function decodeSiemensTotal(bits: Bits64): number {
  siemensView.setUint32(0, bits.hi);
  siemensView.setUint32(4, bits.lo);
  return siemensView.getFloat64(0);
}

/** The field bits of a totalizer value, into `out`. */
export function encodeSiemensTotal(value: number, out: Bits64): Bits64 {
  siemensView.setFloat64(0, value);
  out.hi = siemensView.getUint32(0);
  out.lo = siemensView.getUint32(4);
  return out;
}
