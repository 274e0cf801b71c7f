/**
 * Between a bus channel's raw decoded value and the value the agent reports or
 * receives as desired: gain and offset (decisions.md section 2), applied by the
 * bus drivers themselves, as the pin drivers do.
 *
 * - Booleans pass unscaled.
 * - Numbers: reported = raw x scaleGain + scaleOffset; desired raw =
 *   (desired - scaleOffset) / scaleGain (the encoder then rounds integers and
 *   range-checks).
 * - 64-bit decimal strings pass untouched when the scaling is the identity;
 *   otherwise they are scaled as numbers (precision beyond 2^53 is lost, which
 *   a gain other than 1 loses anyway).
 */
import type { Value } from '../agent/driver.js';
import { Errno } from '../errno.js';
import { CodecFailure, WRONG_TYPE } from './failure.js';

/** The two scaling fields of a channel. */
export interface Scaling {
  scaleGain: number;
  scaleOffset: number;
}

const digits = 1e9;
const NOT_FINITE = new CodecFailure(Errno.EINVAL, 'desired value is not a finite number');

function identity(s: Scaling): boolean {
  return s.scaleGain === 1 && s.scaleOffset === 0;
}

/** raw x gain + offset, with binary floating-point noise below 1e-9 removed. */
export function scaleRaw(raw: number, s: Scaling): number {
  if (identity(s)) return raw;
  const value = raw * s.scaleGain + s.scaleOffset;
  if (!Number.isFinite(value) || Math.abs(value) >= 1e6) return value;
  const rounded = Math.round(value * digits) / digits;
  return rounded === 0 ? 0 : rounded;
}

/** The reported value of a decoded raw value. */
export function toReported(raw: Value, s: Scaling): Value {
  if (typeof raw === 'boolean' || identity(s)) return raw;
  return scaleRaw(typeof raw === 'number' ? raw : Number(raw), s);
}

/** The raw value to encode for a desired value, or why not. */
export function toRaw(desired: Value, s: Scaling): Value | CodecFailure {
  if (typeof desired === 'boolean' || identity(s)) return desired;
  const v = typeof desired === 'number' ? desired : Number(desired);
  if (typeof desired === 'string' && (desired.trim() === '' || Number.isNaN(v))) return WRONG_TYPE;
  if (!Number.isFinite(v)) return NOT_FINITE;
  return (v - s.scaleOffset) / s.scaleGain;
}
