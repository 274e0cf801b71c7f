/**
 * J1939 parameter ranges (SAE J1939-71, section 5.1.4 and table 1): a parameter
 * whose raw bits are all ones is "not available"; the range just below it marks
 * an error. For parameters of 8 bits or more the top byte tells:
 * 0xFF not available, 0xFE error indicator, 0xFB..0xFD parameter-specific
 * indicators (reported as not available too: they carry no measurement).
 * Discrete parameters of 2 to 7 bits: all ones is not available, all ones
 * minus one is an error (e.g. 2 bits: 11 and 10).
 *
 * Reported errors (decisions.md section 4 has no closer numbers):
 * - not available: -EOPNOTSUPP, the sender does not supply the parameter;
 * - error indicator: -EIO, the sender says its reading failed.
 * Only integer and bool fields of J1939 channels are checked; 1-bit fields have
 * no such values.
 */
import { failure, type Bits64, type Failure } from '../codec/field.js';
import { Errno } from '../errno.js';

/** The sender marks the parameter "not available" (all ones). */
export const NOT_AVAILABLE = failure(Errno.EOPNOTSUPP, 'J1939 parameter not available');
/** The sender marks the parameter as in error. */
export const ERROR_INDICATOR = failure(Errno.EIO, 'J1939 error indicator');

/** The failure a J1939 field's raw bits signal, or undefined for a valid value. */
export function j1939Indicator(bits: Bits64, sizeBits: number): Failure | undefined {
  if (sizeBits < 2) return undefined;
  if (sizeBits < 8) {
    const all = (1 << sizeBits) - 1;
    if (bits.lo === all) return NOT_AVAILABLE;
    if (bits.lo === all - 1) return ERROR_INDICATOR;
    return undefined;
  }
  const top = topByte(bits, sizeBits);
  if (top === 0xfe) return ERROR_INDICATOR;
  if (top >= 0xfb) return NOT_AVAILABLE;
  return undefined;
}

/** The most significant byte of a field of `sizeBits` >= 8 bits. */
function topByte(bits: Bits64, sizeBits: number): number {
  const shift = sizeBits - 8;
  if (shift >= 32) return (bits.hi >>> (shift - 32)) & 0xff;
  if (shift + 8 <= 32) return (bits.lo >>> shift) & 0xff;
  // The byte straddles the halves.
  const fromLo = bits.lo >>> shift;
  const fromHi = bits.hi << (32 - shift);
  return (fromLo | fromHi) & 0xff;
}
