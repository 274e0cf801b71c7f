/**
 * The NMEA 0183 push parser: bytes in (any chunking), verified lines out.
 *
 * A line starts at '$' (or '!') and ends at CR or LF. It is kept in a fixed
 * buffer of 128 bytes; a longer line, a line cut by a new '$', a control byte
 * inside a line, a missing or wrong checksum all count as `failed` and deliver
 * nothing. Only after the checksum passes is the line handed to its reader
 * (`onLine`), which reads the fields it needs (NmeaFields) and commits nothing
 * when one is malformed (TinyGPS++'s rule). STYLE.md practice 5; docs/gnss.md.
 *
 * Counting what the parser saw is for the host tools, tests and benches (the
 * firmware shows no statistics): an optional `tally` hears each outcome, and
 * CountingNmeaParser keeps the NmeaCounters.
 */
import { MAX_FIELDS, NmeaFields } from './nmea-fields.js';

/** Counters of what the parser saw; every line lands in exactly one of passed or failed. */
export interface NmeaCounters {
  /** Lines whose checksum passed (supported or not). */
  passed: number;
  /** Lines refused: checksum wrong or missing, too long, cut short, control bytes. */
  failed: number;
  /** Passed lines the reader used. */
  delivered: number;
  /** Passed lines of a type the reader knows with a malformed field (nothing used). */
  malformed: number;
  /** Passed lines of a type the reader does not read (vendor sentences, VTG, ZDA ...). */
  skipped: number;
  /** Bytes outside any line (noise between sentences). */
  noiseBytes: number;
  /** Exceptions thrown by the reader (caught and counted). */
  callbackErrors: number;
}

/** The outcomes a tally hears, by number: the NmeaCounters field each counts. */
export const NMEA_OUTCOMES = [
  'passed',
  'failed',
  'delivered',
  'malformed',
  'skipped',
  'noiseBytes',
  'callbackErrors',
] as const satisfies readonly (keyof NmeaCounters)[];
const PASSED = 0;
const FAILED = 1;
const DELIVERED = 2;
const MALFORMED = 3;
const SKIPPED = 4;
const NOISE_BYTE = 5;
const CALLBACK_ERROR = 6;

/** Hears one outcome (an index of NMEA_OUTCOMES) per line and per byte outside any line. */
export type NmeaTally = (outcome: number) => void;

export interface NmeaParserOptions {
  /**
   * Reads one verified line; returns false for a type it does not read. It
   * sets `fields.bad` (through the field readers) when a field is malformed.
   */
  onLine(fields: NmeaFields): boolean;
}

/** The lower-case hex digit of 0..15, as a character code. */
function hexDigit(n: number): number {
  return n < 10 ? n + 0x30 : n + 0x57;
}

export class NmeaParser {
  readonly #fields = new NmeaFields();
  /** Called as a method: a FixTracker is a reader as it is. */
  readonly #reader: NmeaParserOptions;
  readonly #tally: NmeaTally | undefined;
  /** Bytes of the open line; 0 between lines. */
  #length = 0;
  /** XOR of the line's bytes after '$' (the '*' and checksum digits too: taken out when the line ends). */
  #sum = 0;
  /** Offset of the line's first '*'; -1 before it. */
  #star = -1;

  constructor(reader: NmeaParserOptions, tally?: NmeaTally) {
    this.#reader = reader;
    this.#tally = tally;
  }

  /**
   * Feeds received bytes; lines are handed on synchronously as they complete.
   * One pass per byte: the checksum and the field offsets are gathered while
   * the line is copied, so finishing a line reads no byte twice.
   */
  push(bytes: Uint8Array): void {
    const f = this.#fields;
    const line = f.line;
    const tally = this.#tally;
    let len = this.#length;
    let sum = this.#sum;
    let star = this.#star;
    const cap = line.length;
    const n = bytes.length;
    for (let i = 0; i < n; i++) {
      const c = bytes[i] as number;
      if (len > 0 && c > 0x2c && c < 0x7f && len < cap) {
        // The common case: a plain character inside a line (not $ ! * , CR LF or a control byte).
        sum ^= c;
        line[len++] = c;
      } else if (c === 0x24 || c === 0x21) {
        // '$' or '!': a new line (one still open was cut short)
        if (len > 0) tally?.(FAILED);
        line[0] = c;
        len = 1;
        sum = 0;
        star = -1;
        f.count = 0;
      } else if (c === 0x0d || c === 0x0a) {
        if (len > 0) {
          // The line's end: its checksum `*hh` verified, the line handed to its reader.
          const d1 = line[len - 2]!;
          const d2 = line[len - 1]!;
          const check = sum ^ 0x2a ^ d1 ^ d2; // the XOR between '$' and '*' once the '*' is the third byte from the end
          // Either case: of the printable bytes, only the hex digit itself (or its upper case) | 0x20 gives it.
          if (
            star < 6 ||
            star !== len - 3 ||
            (d1 | 0x20) !== hexDigit(check >> 4) ||
            (d2 | 0x20) !== hexDigit(check & 15)
          )
            tally?.(FAILED);
          else {
            tally?.(PASSED);
            f.end[f.count++] = star;
            // The address is field 0, from offset 1: talker (2 letters) and type (3) of a `$` sentence.
            f.type = line[0] === 0x24 && f.end[0] === 6 ? (line[3]! << 16) | (line[4]! << 8) | line[5]! : 0;
            f.talker = (line[1]! << 8) | line[2]!;
            f.bad = false;
            let outcome = CALLBACK_ERROR;
            try {
              outcome = !this.#reader.onLine(f) ? SKIPPED : f.bad ? MALFORMED : DELIVERED;
            } catch {
              // A reader's exception stays here: the next line is read as usual.
            }
            tally?.(outcome);
          }
        }
        len = 0;
      } else if (len === 0) {
        tally?.(NOISE_BYTE);
      } else if (c < 0x20 || c > 0x7e || len >= cap) {
        len = 0; // control byte or overflow: the line cannot be trusted
        tally?.(FAILED);
      } else {
        sum ^= c;
        if (c === 0x2a) {
          if (star < 0) star = len; // '*'
        } else if (c === 0x2c && f.count < MAX_FIELDS - 1) {
          // ',' ends a field
          f.end[f.count++] = len;
          f.start[f.count] = len + 1;
        }
        line[len++] = c;
      }
    }
    this.#length = len;
    this.#sum = sum;
    this.#star = star;
  }
}

/** Fresh counters, all 0. */
export function newNmeaCounters(): NmeaCounters {
  return { passed: 0, failed: 0, delivered: 0, malformed: 0, skipped: 0, noiseBytes: 0, callbackErrors: 0 };
}

/** A tally that counts into `counters`. */
export function countInto(counters: NmeaCounters): NmeaTally {
  return (outcome) => counters[NMEA_OUTCOMES[outcome]!]++;
}

/** An NmeaParser that keeps its counters (host tools, tests and benches). */
export class CountingNmeaParser extends NmeaParser {
  readonly counters: NmeaCounters;

  constructor(reader: NmeaParserOptions, counters = newNmeaCounters()) {
    super(reader, countInto(counters));
    this.counters = counters;
  }
}
