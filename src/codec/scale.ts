/**
 * Gain and offset in both directions (decisions.md section 2).
 *
 * Inputs: reported = raw x scaleGain + scaleOffset, with binary floating-point
 * noise removed (0.1 x 253 - 40 reports -14.7, not -14.700000000000003).
 * Outputs: raw = (desired - scaleOffset) / scaleGain, rounded to an integer when
 * the output takes counts, clamped to the output's range when it lies within
 * half a count of it (rounding noise), and rejected with -ERANGE beyond that.
 */

/** The raw range an output accepts (e.g. PWM duty 0 .. 2^resolution - 1). */
export interface RawRange {
  min: number;
  max: number;
  /** Raw values are whole counts: round before writing. */
  integer: boolean;
}

/** Decimal places kept after scaling (float noise sits far below this). */
const scaledDigits = 1e9;
/** Beyond this magnitude the rounding step itself would lose precision. */
const roundableLimit = 1e6;

/** raw x gain + offset; exact when gain is 1 and offset 0. */
export function scaleToValue(raw: number, gain: number, offset: number): number {
  if (gain === 1 && offset === 0) return raw;
  const value = raw * gain + offset;
  if (!(Math.abs(value) < roundableLimit)) return value; // NaN and infinities too
  const rounded = Math.round(value * scaledDigits) / scaledDigits;
  return rounded === 0 ? 0 : rounded; // never -0
}

/**
 * (value - offset) / gain, rounded and clamped to `range` when given; undefined (-ERANGE) when out
 * of range by more than half a count, or not finite. `value` is finite: the channel has checked it
 * (ChannelSlot.write answers -EINVAL for anything else).
 */
export function valueToRaw(value: number, gain: number, offset: number, range?: RawRange): number | undefined {
  let raw = (value - offset) / gain; // exact when gain is 1 and offset 0
  if (!Number.isFinite(raw)) return undefined;
  if (range === undefined) return raw;
  const slack = range.integer ? 0.5 : 1e-9 * Math.max(1, Math.abs(range.max - range.min));
  if (raw < range.min - slack || raw > range.max + slack) return undefined;
  if (range.integer) raw = Math.round(raw);
  if (raw < range.min) raw = range.min;
  if (raw > range.max) raw = range.max;
  return raw === 0 ? 0 : raw;
}
