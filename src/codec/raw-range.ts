/**
 * The raw range a bus channel's field accepts, for the agent's inverse scaling
 * (src/codec/scale.ts, src/agent/driver.ts `rawRange`): the integers that
 * `dataSize` bits of the data type hold, or the finite float32 range. Booleans
 * and float64 fields have no range (undefined).
 *
 * The encoder (src/codec/encode.ts) checks the same bounds again, so a value
 * that reaches a driver without the agent's check is still refused (-ERANGE).
 */
import type { DataLayout } from '../config/model.js';
import type { RawRange } from './scale.js';
import { isIntegerType, isSignedType } from './data.js';

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
