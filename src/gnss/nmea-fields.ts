/**
 * The fields of one verified NMEA 0183 line, read by index straight from the
 * parser's line buffer without making strings. The parser records each
 * field's start and end while it copies the line (one pass), and the
 * sentence's address: `type` (its three letters as one number, 0x474741 for
 * GGA) and `talker` (two letters, 0x4750 for GP). A field past the last reads
 * as empty.
 *
 * Convention: an empty field reads as NaN (0 for `char`). A non-empty field
 * that is not well formed also reads as NaN and sets `bad`: the reader of the
 * line then commits nothing from it.
 */

/** Fields a line holds at most (further fields are kept in the last one). */
export const MAX_FIELDS = 48;

export class NmeaFields {
  /** The line: '$', the fields separated by commas, '*' and the checksum. */
  readonly line = new Uint8Array(128);
  /** Start and end offsets of each field in `line`; `count` fields. */
  readonly start = new Uint16Array(MAX_FIELDS);
  readonly end = new Uint16Array(MAX_FIELDS);
  count = 0;
  /** The three letters of a `$` sentence's type as one number; 0 for other addresses (`!`, vendor `$P...`). */
  type = 0;
  /** The talker's two letters as one number. */
  talker = 0;
  /** Set when a field failed to parse (or `expect` found too few). */
  bad = false;
  #from = 0;
  #mantissa = 0;
  #scale = 0;

  /** Length of field `i` (0 past the last); its start goes to `#from`. */
  #span(i: number): number {
    if (i >= this.count) return (this.#from = 0);
    this.#from = this.start[i] as number;
    return (this.end[i] as number) - this.#from;
  }

  #fail(): number {
    this.bad = true;
    return NaN;
  }

  /** A sentence that needs at least `minFields` fields: fewer is malformed. */
  expect(minFields: number): void {
    if (this.count < minFields) this.bad = true;
  }

  /**
   * `[-+]digits[.digits]` of field `i` into `#mantissa` and `#scale` (digits
   * after the point); returns the sign (-1 or 1), 0 when empty or malformed.
   */
  #decimal(i: number): number {
    const line = this.line;
    const n = this.#span(i);
    let at = this.#from;
    const end = at + n;
    if (n === 0) return 0;
    const sign = line[at] === 0x2d ? -1 : 1; // '-'
    if (sign < 0 || line[at] === 0x2b) at++; // '+'
    let m = 0;
    let digits = 0;
    let scale = -1;
    for (; at < end; at++) {
      const d = (line[at] as number) - 0x30;
      if (d >= 0 && d <= 9) {
        m = m * 10 + d;
        digits++;
        if (scale >= 0) scale++;
      } else if (d === -2 && scale < 0)
        scale = 0; // '.'
      else digits = 99; // malformed
    }
    if (digits === 0 || digits > 17 || scale > 22) {
      this.bad = true;
      return 0;
    }
    this.#mantissa = m;
    this.#scale = scale < 0 ? 0 : scale;
    return sign;
  }

  /** The decimal number of field `i`; NaN when empty or malformed. */
  num(i: number): number {
    const sign = this.#decimal(i);
    return sign === 0 ? NaN : (sign * this.#mantissa) / 10 ** this.#scale;
  }

  /** A non-negative integer of at most 9 digits; NaN when empty or malformed. */
  int(i: number): number {
    const n = this.#span(i);
    if (n === 0) return NaN;
    if (n > 9) return this.#fail();
    let m = 0;
    for (let at = this.#from; at < this.#from + n; at++) {
      const d = (this.line[at] as number) - 0x30;
      if (d < 0 || d > 9) return this.#fail();
      m = m * 10 + d;
    }
    return m;
  }

  /**
   * Degrees from `[d]ddmm.mmmm` in field `i` and its hemisphere (N/S, or E/W
   * when `maxDeg` is 180) in field `i + 1`; negative south and west. NaN when
   * both are empty; malformed when one is missing, minutes are 60 or more, or
   * the result exceeds `maxDeg`.
   */
  angle(i: number, maxDeg: 90 | 180): number {
    const hemiLength = this.#span(i + 1);
    const hemisphere = this.line[this.#from] as number;
    if (this.#span(i) + hemiLength === 0) return NaN;
    // Unsigned: a '+' or '-' before the degrees is malformed.
    if (hemiLength !== 1 || this.line[this.#from] === 0x2b || this.#decimal(i) <= 0) return this.#fail();
    const unit = 10 ** this.#scale;
    const degrees = Math.floor(this.#mantissa / (100 * unit));
    const minutes = this.#mantissa - degrees * 100 * unit;
    const deg = degrees + minutes / unit / 60;
    const negative = hemisphere === (maxDeg === 90 ? 0x53 : 0x57); // 'S' : 'W'
    const positive = hemisphere === (maxDeg === 90 ? 0x4e : 0x45); // 'N' : 'E'
    if (minutes >= 60 * unit || deg > maxDeg || !(negative || positive)) return this.#fail();
    return negative ? -deg : deg;
  }

  /** UTC time of day `hhmmss[.sss]` in milliseconds; NaN when empty or malformed. */
  time(i: number): number {
    const n = this.#span(i);
    const at = this.#from;
    if (n === 0) return NaN;
    const hh = this.#int2(at);
    const mm = this.#int2(at + 2);
    const ss = this.#int2(at + 4);
    if (n < 6 || !(hh <= 23 && mm <= 59 && ss <= 60) || (n > 6 && this.line[at + 6] !== 0x2e)) return this.#fail();
    // Milliseconds from up to three fraction digits (further digits are finer than receivers report).
    let ms = 0;
    for (let k = 7, weight = 100; k < n; k++, weight /= 10) {
      const d = (this.line[at + k] as number) - 0x30;
      if (d < 0 || d > 9) return this.#fail();
      ms += d * weight;
    }
    return (((hh * 60 + mm) * 60 + ss) * 1000 + Math.round(ms)) | 0;
  }

  /** Two digits at `at` as a number; NaN unless both are digits. */
  #int2(at: number): number {
    const a = (this.line[at] as number) - 0x30;
    const b = (this.line[at + 1] as number) - 0x30;
    return a >= 0 && a <= 9 && b >= 0 && b <= 9 ? a * 10 + b : NaN;
  }

  /** The code of a one-character field; 0 when empty; malformed when longer. */
  char(i: number): number {
    const n = this.#span(i);
    if (n > 1) this.bad = true;
    return n === 1 ? (this.line[this.#from] as number) : 0;
  }
}
