/**
 * Byte-level readers of NMEA 0183 fields: numbers, latitude/longitude, UTC
 * time and date, read straight from the parser's line buffer without making
 * strings (no allocation per field).
 *
 * Convention: an empty field reads as NaN (unknown). A non-empty field that is
 * not well formed also reads as NaN and sets `FieldReader.bad`, so a decoder
 * can refuse the whole sentence (nothing from it is committed).
 */

const CH_0 = 0x30;
const CH_9 = 0x39;
const CH_DOT = 0x2e;
const CH_MINUS = 0x2d;
const CH_PLUS = 0x2b;

/** 10^0 .. 10^22: exact doubles, so mantissa / POW10[k] rounds correctly. */
const POW10: readonly number[] = Array.from({ length: 23 }, (_, i) => 10 ** i);

/**
 * Reads fields of one line; `bad` records a malformed non-empty field.
 *
 * Allocation: a function returning a computed double boxes it (a heap number)
 * unless the engine inlines it, so `decimal` and `angle` leave their result in
 * `value` (a field updated in place) and the decoders copy it out. Integer
 * readers return small integers or the constant NaN, which never allocate.
 */
export class FieldReader {
  /** Set when a non-empty field failed to parse since the last `begin`. */
  bad = false;
  /** Result of the last `decimal` or `angle`: NaN when empty or malformed. */
  value = NaN;
  /** Digits after the decimal point of the last `decimal` read (for lat/lon). */
  private scale = 0;
  /** Integer mantissa of the last `decimal` read. */
  private mantissa = 0;

  constructor(private readonly buf: Uint8Array) {}

  /** Starts a new sentence. */
  begin(): void {
    this.bad = false;
  }

  private fail(): number {
    this.bad = true;
    this.value = NaN;
    return NaN;
  }

  /** Sets `value` to the decimal number `[-+]digits[.digits]`; NaN when empty. */
  decimal(start: number, end: number): void {
    this.value = NaN;
    if (start >= end) return;
    const buf = this.buf;
    let i = start;
    let negative = false;
    const first = buf[i];
    if (first === CH_MINUS || first === CH_PLUS) {
      negative = first === CH_MINUS;
      i++;
    }
    let m = 0;
    let digits = 0;
    let scale = -1;
    for (; i < end; i++) {
      const c = buf[i] as number;
      if (c >= CH_0 && c <= CH_9) {
        m = m * 10 + (c - CH_0);
        digits++;
        if (scale >= 0) scale++;
      } else if (c === CH_DOT && scale < 0) {
        scale = 0;
      } else {
        this.fail();
        return;
      }
    }
    if (digits === 0 || digits > 17 || scale > 22) {
      this.fail();
      return;
    }
    if (scale < 0) scale = 0;
    this.scale = scale;
    this.mantissa = m;
    const v = scale === 0 ? m : m / (POW10[scale] as number);
    this.value = negative ? -v : v;
  }

  /** A non-negative integer of at most 9 digits; NaN when empty. */
  integer(start: number, end: number): number {
    if (start >= end) return NaN;
    if (end - start > 9) return this.fail();
    const buf = this.buf;
    let m = 0;
    for (let i = start; i < end; i++) {
      const c = buf[i] as number;
      if (c < CH_0 || c > CH_9) return this.fail();
      m = (m * 10 + (c - CH_0)) | 0;
    }
    return m;
  }

  /** An integer in an optional trailing field whose meaning varies by vendor: NaN, never malformed. */
  lenientInteger(start: number, end: number): number {
    const wasBad = this.bad;
    const v = this.integer(start, end);
    this.bad = wasBad;
    return v;
  }

  /**
   * Sets `value` to degrees from `[d]ddmm.mmmm` and a hemisphere field
   * (N/S/E/W); negative south and west. NaN when both are empty; malformed
   * when only one is given, when minutes are 60 or more, or when the result
   * exceeds `maxDeg`.
   */
  angle(start: number, end: number, hemiStart: number, hemiEnd: number, maxDeg: number): void {
    const hasValue = start < end;
    const hasHemi = hemiStart < hemiEnd;
    this.value = NaN;
    if (!hasValue && !hasHemi) return;
    if (!hasValue || hemiEnd - hemiStart !== 1) {
      this.fail();
      return;
    }
    this.decimal(start, end);
    const v = this.value;
    if (Number.isNaN(v) || v < 0 || this.buf[start] === CH_PLUS) {
      this.fail();
      return;
    }
    const unit = POW10[this.scale] as number;
    const m = this.mantissa;
    const degrees = Math.floor(m / (100 * unit));
    const minutesScaled = m - degrees * 100 * unit;
    const deg = degrees + minutesScaled / unit / 60;
    const h = this.buf[hemiStart];
    const southOrWest = maxDeg === 90 ? h === 0x53 : h === 0x57; // 'S' : 'W'
    const northOrEast = maxDeg === 90 ? h === 0x4e : h === 0x45; // 'N' : 'E'
    if (minutesScaled >= 60 * unit || deg > maxDeg || (!southOrWest && !northOrEast)) {
      this.fail();
      return;
    }
    this.value = southOrWest ? -deg : deg;
  }

  /** UTC time of day `hhmmss[.sss]` in milliseconds; NaN when empty. */
  timeOfDayMs(start: number, end: number): number {
    if (start >= end) return NaN;
    if (end - start < 6) return this.fail();
    const buf = this.buf;
    for (let i = start; i < start + 6; i++) {
      const c = buf[i] as number;
      if (c < CH_0 || c > CH_9) return this.fail();
    }
    const hh = twoDigits(buf, start);
    const mm = twoDigits(buf, start + 2);
    const ss = twoDigits(buf, start + 4);
    if (hh > 23 || mm > 59 || ss > 60) return this.fail();
    let ms = 0;
    if (end > start + 6) {
      if (buf[start + 6] !== CH_DOT) return this.fail();
      // Milliseconds from up to three fraction digits (further digits are finer than receivers report).
      let scale = 100;
      for (let i = start + 7; i < end; i++) {
        const c = buf[i] as number;
        if (c < CH_0 || c > CH_9) return this.fail();
        ms += (c - CH_0) * scale;
        scale = scale / 10;
      }
      ms = Math.round(ms);
    }
    return (((hh * 60 + mm) * 60 + ss) * 1000 + ms) | 0;
  }

  /**
   * A date `ddmmyy` as days since 1970-01-01 (two-digit years 80..99 are
   * 1980..1999, others 2000..2079); NaN when empty.
   */
  dateDays(start: number, end: number): number {
    if (start >= end) return NaN;
    if (end - start !== 6) return this.fail();
    const v = this.integer(start, end);
    if (Number.isNaN(v)) return v;
    const day = Math.floor(v / 10000);
    const month = Math.floor(v / 100) % 100;
    const yy = v % 100;
    if (day < 1 || day > 31 || month < 1 || month > 12) return this.fail();
    return daysFromCivil(yy >= 80 ? 1900 + yy : 2000 + yy, month, day) | 0;
  }

  /** The single character of a one-byte field as its code; 0 when empty; malformed if longer. */
  char(start: number, end: number): number {
    if (start >= end) return 0;
    if (end - start !== 1) {
      this.bad = true;
      return 0;
    }
    return this.buf[start] as number;
  }
}

function twoDigits(buf: Uint8Array, i: number): number {
  return ((buf[i] as number) - CH_0) * 10 + ((buf[i + 1] as number) - CH_0);
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
