/**
 * The fields of one verified NMEA 0183 line, read by index straight from the
 * parser's line buffer without making strings (no allocation per field). The
 * parser records each field's start and end offsets while it copies the line
 * (one pass); field 0 is the address (`GPGGA`), and a field past the last
 * reads as empty.
 *
 * Convention: an empty field reads as NaN (unknown). A non-empty field that is
 * not well formed also reads as NaN and sets `bad`, so a decoder can refuse the
 * whole sentence (nothing from it is committed).
 *
 * Allocation: a function returning a computed double boxes it (a heap number)
 * unless the engine inlines it, so `num` and `angle` leave their result in
 * `value` (a field updated in place) and the decoders copy it out. Integer
 * readers return small integers or the constant NaN, which never allocate.
 */
import { ASCII } from './sentences.js';

const CH_0 = 0x30;
const CH_DOT = 0x2e;
const CH_PLUS = 0x2b;

/** 10^0 .. 10^22: exact doubles, so mantissa / POW10[k] rounds correctly. */
const POW10: readonly number[] = Array.from({ length: 23 }, (_, i) => 10 ** i);

/** Fields a line holds at most (further fields are kept in the last one). */
export const MAX_FIELDS = 48;

export class NmeaFields {
  /** Start and end offsets of each field in the line; `count` fields. */
  readonly start = new Uint16Array(MAX_FIELDS);
  readonly end = new Uint16Array(MAX_FIELDS);
  count = 0;
  /** Set when a non-empty field failed to parse since the last `begin`. */
  bad = false;
  /** Result of the last `num` or `angle`: NaN when empty or malformed. */
  value = NaN;
  /** Digits after the decimal point, and the integer mantissa, of the last `num`. */
  private scale = 0;
  private mantissa = 0;

  constructor(private readonly buf: Uint8Array) {}

  /** Start of the field last measured by `span`. */
  private from = 0;

  /** Length of field `i` (0 past the last field, which reads as empty); its start goes to `from`. */
  private span(i: number): number {
    if (i >= this.count) return (this.from = 0);
    this.from = this.start[i] as number;
    return (this.end[i] as number) - this.from;
  }

  /** Starts a sentence that needs at least `minFields` fields (fewer: malformed). */
  expect(minFields: number): void {
    this.bad = this.count < minFields;
  }

  private fail(): number {
    this.bad = true;
    this.value = NaN;
    return NaN;
  }

  /** Sets `value` to the decimal number `[-+]digits[.digits]` of field `i`; NaN when empty. */
  num(i: number): void {
    const buf = this.buf;
    const n = this.span(i);
    let at = this.from;
    const end = at + n;
    this.value = NaN;
    if (n === 0) return;
    const sign = buf[at];
    if (sign === 0x2d || sign === CH_PLUS) at++; // '-' or '+'
    let m = 0;
    let digits = 0;
    let scale = -1;
    for (; at < end; at++) {
      const d = (buf[at] as number) - CH_0; // a digit when 0..9
      if (d >= 0 && d <= 9) {
        m = m * 10 + d;
        digits++;
        if (scale >= 0) scale++;
      } else if (d === CH_DOT - CH_0 && scale < 0) scale = 0;
      else return void this.fail();
    }
    if (digits === 0 || digits > 17 || scale > 22) return void this.fail();
    this.scale = scale < 0 ? 0 : scale;
    this.mantissa = m;
    const v = m / (POW10[this.scale] as number);
    this.value = sign === 0x2d ? -v : v;
  }

  /** A non-negative integer of at most 9 digits; NaN when empty. */
  int(i: number): number {
    const n = this.span(i);
    const start = this.from;
    const end = start + n;
    if (n === 0) return NaN;
    if (n > 9) return this.fail();
    let m = 0;
    for (let at = start; at < end; at++) {
      const d = (this.buf[at] as number) - CH_0;
      if (d < 0 || d > 9) return this.fail();
      m = m * 10 + d;
    }
    return m;
  }

  /** An integer in an optional trailing field whose meaning varies by vendor: NaN, never malformed. */
  lenientInt(i: number): number {
    const wasBad = this.bad;
    const v = this.int(i);
    this.bad = wasBad;
    return v;
  }

  /**
   * Sets `value` to degrees from `[d]ddmm.mmmm` in field `i` and a hemisphere
   * (N/S/E/W) in field `i + 1`; negative south and west. NaN when both are
   * empty; malformed when only one is given, when minutes are 60 or more, or
   * when the result exceeds `maxDeg`.
   */
  angle(i: number, maxDeg: 90 | 180): void {
    const hemiLength = this.span(i + 1);
    const h = this.buf[this.from];
    const hasValue = this.span(i) > 0;
    this.value = NaN;
    if (!hasValue && hemiLength === 0) return;
    if (!hasValue || hemiLength !== 1 || this.buf[this.from] === CH_PLUS) return void this.fail();
    this.num(i);
    const v = this.value;
    if (!(v >= 0)) return void this.fail();
    const unit = POW10[this.scale] as number;
    const degrees = Math.floor(this.mantissa / (100 * unit));
    const minutesScaled = this.mantissa - degrees * 100 * unit;
    const deg = degrees + minutesScaled / unit / 60;
    const negative = h === (maxDeg === 90 ? 0x53 : 0x57); // 'S' : 'W'
    const positive = h === (maxDeg === 90 ? 0x4e : 0x45); // 'N' : 'E'
    if (minutesScaled >= 60 * unit || deg > maxDeg || !(negative || positive)) return void this.fail();
    this.value = negative ? -deg : deg;
  }

  /** UTC time of day `hhmmss[.sss]` in milliseconds; NaN when empty. */
  timeOfDayMs(i: number): number {
    const n = this.span(i);
    const start = this.from;
    const end = start + n;
    if (n === 0) return NaN;
    if (n < 6) return this.fail();
    const hh = this.int2(start);
    const mm = this.int2(start + 2);
    const ss = this.int2(start + 4);
    if (!(hh <= 23 && mm <= 59 && ss <= 60)) return this.fail();
    let ms = 0;
    if (end > start + 6) {
      if (this.buf[start + 6] !== CH_DOT) return this.fail();
      // Milliseconds from up to three fraction digits (further digits are finer than receivers report).
      let weight = 100;
      for (let at = start + 7; at < end; at++) {
        const d = (this.buf[at] as number) - CH_0;
        if (d < 0 || d > 9) return this.fail();
        ms += d * weight;
        weight = weight / 10;
      }
      ms = Math.round(ms);
    }
    return (((hh * 60 + mm) * 60 + ss) * 1000 + ms) | 0;
  }

  /** Two digits at `at` as a number; NaN unless both are digits. */
  private int2(at: number): number {
    const a = (this.buf[at] as number) - CH_0;
    const b = (this.buf[at + 1] as number) - CH_0;
    return a >= 0 && a <= 9 && b >= 0 && b <= 9 ? a * 10 + b : NaN;
  }

  /**
   * A date `ddmmyy` as days since 1970-01-01 (two-digit years 80..99 are
   * 1980..1999, others 2000..2079); NaN when empty.
   */
  dateDays(i: number): number {
    const n = this.span(i);
    if (n === 0) return NaN;
    if (n !== 6) return this.fail();
    const v = this.int(i);
    if (Number.isNaN(v)) return v;
    const day = Math.floor(v / 10000);
    const month = Math.floor(v / 100) % 100;
    const yy = v % 100;
    if (day < 1 || day > 31 || month < 1 || month > 12) return this.fail();
    return daysFromCivil(yy >= 80 ? 1900 + yy : 2000 + yy, month, day) | 0;
  }

  /** The single character of a one-byte field; '' when empty; malformed if longer. */
  char(i: number): string {
    const n = this.span(i);
    if (n > 1) this.bad = true;
    return n === 1 ? (ASCII[(this.buf[this.from] as number) & 0x7f] as string) : '';
  }
}

/** Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm). */
export function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}
