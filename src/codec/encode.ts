/**
 * The encoder for desired values written to a bus (Modbus coils and holding
 * registers): the inverse of src/codec/data.ts. It takes the RAW value (after
 * inverse scaling) and writes the channel's field into a data window, leaving
 * the window's other bits untouched (so a caller can read-modify-write).
 *
 * Checks (decisions.md sections 2 and 4):
 * - bool takes a boolean (or 0 / 1); integer types take a number, rounded to
 *   the nearest integer, or (64-bit types) a decimal string; floats take a
 *   finite number. Anything else: -EINVAL.
 * - A value outside what `dataSize` bits of the type hold: -ERANGE.
 */
import type { Value } from '../agent/driver.js';
import type { DataLayout } from '../config/model.js';
import { fitsWindow, writeBits, type Bits64 } from './bits.js';
import { isIntegerType, isSignedType, OUT_OF_RANGE, SHORT_DATA, WRONG_TYPE, type CodecFailure } from './data.js';
import type { RawRange } from './scale.js';

const scratchBits: Bits64 = { hi: 0, lo: 0 };
const scratchView = new DataView(new ArrayBuffer(8));

/**
 * Writes `value` into `window` as the layout says (`packed`: a window of coils,
 * src/codec/bits.ts); returns a failure or undefined.
 */
export function encodeData(
  value: Value,
  layout: DataLayout,
  window: Uint8Array,
  packed = false,
): CodecFailure | undefined {
  const { dataOffsetBits: offset, dataSizeBits: size } = layout;
  if (!fitsWindow(window.length, offset, size)) return SHORT_DATA;
  const bits = toBits(value, layout);
  if ('errno' in bits) return bits;
  writeBits(window, offset, size, layout.dataOrder, bits.hi, bits.lo, packed);
  return undefined;
}

function toBits(value: Value, layout: DataLayout): Bits64 | CodecFailure {
  const out = scratchBits;
  switch (layout.dataType) {
    case 'bool':
      if (value === true || value === 1) return set(out, 0, 1);
      if (value === false || value === 0) return set(out, 0, 0);
      return typeof value === 'number' ? OUT_OF_RANGE : WRONG_TYPE;
    case 'float32':
      if (typeof value !== 'number') return WRONG_TYPE;
      if (!Number.isFinite(value) || Math.abs(value) > FLOAT32_MAX) return OUT_OF_RANGE;
      scratchView.setFloat32(0, value);
      return set(out, 0, scratchView.getUint32(0));
    case 'float64':
    case 'siemensTotalType': // taken to be a float64 (decisions.md section 2; data.ts agrees)
      if (typeof value !== 'number') return WRONG_TYPE;
      if (!Number.isFinite(value)) return OUT_OF_RANGE;
      scratchView.setFloat64(0, value);
      return set(out, scratchView.getUint32(0), scratchView.getUint32(4));
    default:
      return integerBits(value, layout.dataSizeBits, isSignedType(layout.dataType), out);
  }
}

function set(out: Bits64, hi: number, lo: number): Bits64 {
  out.hi = hi >>> 0;
  out.lo = lo >>> 0;
  return out;
}

/**
 * An integer field: a number (rounded to the nearest integer) or a decimal
 * string (64-bit types), checked exactly against what `sizeBits` bits hold.
 */
function integerBits(value: Value, sizeBits: number, signed: boolean, out: Bits64): Bits64 | CodecFailure {
  let v: bigint;
  if (typeof value === 'string') {
    if (!/^-?[0-9]{1,20}$/.test(value)) return WRONG_TYPE;
    v = BigInt(value);
  } else if (typeof value === 'number') {
    if (!Number.isFinite(value)) return OUT_OF_RANGE;
    v = BigInt(Math.round(value));
  } else return WRONG_TYPE;
  const width = BigInt(signed ? sizeBits - 1 : sizeBits);
  if (v < (signed ? -(1n << width) : 0n) || v >= 1n << width) return OUT_OF_RANGE;
  const u = BigInt.asUintN(sizeBits, v);
  return set(out, Number(u >> 32n), Number(u & 0xffffffffn));
}

// ---- The raw range a field accepts, for the agent's inverse scaling (src/codec/scale.ts,
// `rawRange` of src/agent/driver.ts). The checks above apply the same bounds again, so a value
// that reaches a driver without the agent's check is still refused (-ERANGE).

/** Largest finite float32. */
export const FLOAT32_MAX = 3.4028234663852886e38;

/** The raw range of a field, or undefined when any finite number (or only a boolean) fits. */
export function rawRangeOf(layout: DataLayout): RawRange | undefined {
  const size = layout.dataSizeBits;
  if (isIntegerType(layout.dataType)) {
    // Beyond 53 bits doubles cannot count every integer; the encoder checks exactly.
    const bits = Math.min(size, 53);
    return isSignedType(layout.dataType)
      ? { min: -(2 ** (bits - 1)), max: 2 ** (bits - 1) - 1, integer: true }
      : { min: 0, max: 2 ** bits - 1, integer: true };
  }
  if (layout.dataType === 'float32') return { min: -FLOAT32_MAX, max: FLOAT32_MAX, integer: false };
  return undefined;
}
