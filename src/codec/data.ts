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
import { fitsWindow, readBits, type Bits64 } from './bits.js';
import { OUT_OF_RANGE, SHORT_DATA, type CodecFailure } from './failure.js';
import { decodeSiemensTotal } from './siemens-total.js';

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
