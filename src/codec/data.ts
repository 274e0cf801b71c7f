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
 *
 * The window is either bytes (registers, a CAN payload) or packed bits (coils
 * and discrete inputs; src/codec/bits.ts), so the Modbus and CAN readers share
 * this one decoder and src/codec/encode.ts its inverse.
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

/**
 * Decodes one field of `window` as the layout says, its offset counted from
 * window bit `atBits`; `packed` for a window of coils or discrete inputs.
 */
export function decodeData(window: Uint8Array, layout: DataLayout, atBits = 0, packed = false): Decoded {
  const offset = layout.dataOffsetBits + atBits;
  const size = layout.dataSizeBits;
  if (!fitsWindow(window.length, offset, size)) return SHORT_DATA;
  return decodeBits(readBits(window, offset, size, layout.dataOrder, scratchBits, packed), size, layout.dataType);
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
    case 'siemensTotalType': // taken to be a float64 (decisions.md section 2; encode.ts agrees)
      scratchView.setUint32(0, bits.hi);
      scratchView.setUint32(4, bits.lo);
      return finite(scratchView.getFloat64(0));
    default:
      return decodeInteger(bits, sizeBits, isSignedType(type));
  }
}

function finite(x: number): Decoded {
  return Number.isFinite(x) ? x : OUT_OF_RANGE;
}

function decodeInteger(bits: Bits64, sizeBits: number, signed: boolean): Value {
  const top = sizeBits - 1;
  const negative = signed && ((top < 32 ? bits.lo >>> top : bits.hi >>> (top - 32)) & 1) === 1;
  if (sizeBits <= 32) return negative ? bits.lo - 2 ** sizeBits : bits.lo; // stays a small integer
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
