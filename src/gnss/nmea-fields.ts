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
  readonly start = new Uint16Array(MAX_FIELDS).fill(1); // field 0, the address, starts after '$' on every line
  readonly end = new Uint16Array(MAX_FIELDS);
  count = 0;
  /** The three letters of a `$` sentence's type as one number; 0 for other addresses (`!`, vendor `$P...`). */
  type = 0;
  /** The talker's two letters as one number. */
  talker = 0;
  /** Set when a field failed to parse (or `expect` found too few). */
  bad = false;
  /** Of the last number read: its digits as an integer, and 10 to the power of the digits after the point. */
  #mantissa = 0;
  #unit = 1;
  /** Digits before the point of the last number read; 0 when it starts with a sign or the point. */
  #whole = 0;

  #fail(): number {
    this.bad = true;
    return NaN;
  }

  /** A sentence that needs at least `minFields` fields: fewer is malformed. */
  expect(minFields: number): void {
    if (this.count < minFields) this.bad = true;
  }

  /**
   * `[-+]digits[.digits]` of field `i` into `#mantissa`, `#unit` and
   * `#whole`; returns the sign (-1 or 1), 0 when empty or malformed.
   * The one number scanner: `num`, `int`, `angle` and `time` all read through it.
   */
  #decimal(i: number): number {
    if (i >= this.count) return 0;
    const line = this.line;
    let at = this.start[i]!;
    const end = this.end[i]!;
    if (at === end) return 0;
    const sign = line[at] === 0x2d ? -1 : 1; // '-'
    const unsigned = line[at]! > 0x2e; // not '+', '-' or '.'
    if (sign < 0 || line[at] === 0x2b) at++; // '+'
    let m = 0;
    let digits = 0;
    let scale = -1;
    for (; at < end; at++) {
      const d = line[at]! - 0x30;
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
    if (scale < 0) scale = 0;
    this.#mantissa = m;
    this.#unit = 10 ** scale;
    this.#whole = unsigned ? digits - scale : 0;
    return sign;
  }

  /** The decimal number of field `i`; NaN when empty or malformed. */
  num(i: number): number {
    const sign = this.#decimal(i);
    return sign === 0 ? NaN : (sign * this.#mantissa) / this.#unit;
  }

  /** A non-negative integer of at most 9 digits, digits only; NaN when empty or malformed. */
  int(i: number): number {
    if (this.#decimal(i) === 0) return NaN;
    const length = this.end[i]! - this.start[i]!;
    return this.#whole === length && length <= 9 ? this.#mantissa : this.#fail();
  }

  /**
   * Degrees from `[d]ddmm.mmmm` in field `i` and its hemisphere (N/S, or E/W
   * when `maxDeg` is 180) in field `i + 1`; negative south and west. NaN when
   * both are empty; malformed when one is missing, minutes are 60 or more, or
   * the result exceeds `maxDeg`.
   */
  angle(i: number, maxDeg: 90 | 180): number {
    const hemisphere = this.char(i + 1);
    const sign = this.#decimal(i);
    if (sign === 0 && hemisphere === 0) return NaN;
    // Exact integer arithmetic on the digits: degrees, then minutes scaled by `unit`.
    const unit = this.#unit;
    const degrees = Math.floor(this.#mantissa / (100 * unit));
    const minutes = this.#mantissa - degrees * 100 * unit;
    const deg = degrees + minutes / unit / 60;
    const negative = hemisphere === (maxDeg === 90 ? 0x53 : 0x57); // 'S' : 'W'
    const positive = hemisphere === (maxDeg === 90 ? 0x4e : 0x45); // 'N' : 'E'
    // Unsigned: a '+' or '-' before the degrees is malformed.
    if (sign === 0 || this.#whole === 0 || minutes >= 60 * unit || deg > maxDeg || !(negative || positive))
      return this.#fail();
    return negative ? -deg : deg;
  }

  /** UTC time of day `hhmmss[.sss]` in milliseconds (finer fractions rounded); NaN when empty or malformed. */
  time(i: number): number {
    if (this.#decimal(i) === 0) return NaN;
    const unit = this.#unit;
    const hms = Math.floor(this.#mantissa / unit);
    const hh = Math.floor(hms / 10000);
    const mm = Math.floor(hms / 100) % 100;
    const ss = hms % 100;
    if (this.#whole !== 6 || hh > 23 || mm > 59 || ss > 60) return this.#fail();
    return (((hh * 60 + mm) * 60 + ss) * 1000 + Math.round(((this.#mantissa - hms * unit) * 1000) / unit)) | 0;
  }

  /** The code of a one-character field; 0 when empty; malformed when longer. */
  char(i: number): number {
    if (i >= this.count) return 0;
    const at = this.start[i]!;
    const n = this.end[i]! - at;
    if (n > 1) this.bad = true;
    return n === 1 ? this.line[at]! : 0;
  }
}
