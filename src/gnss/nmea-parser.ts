/**
 * The NMEA 0183 push parser: bytes in (any chunking), typed sentences out.
 *
 * A line starts at '$' (or '!') and ends at CR or LF. It is kept in a fixed
 * buffer; a line longer than the buffer, a line cut by a new '$', a control
 * byte inside a line, a missing or wrong checksum all count as `failed` and
 * deliver nothing. Only after the checksum passes are the fields read
 * (TinyGPS++'s rule: commit nothing from a line that has not been verified).
 * STYLE.md practice 5; docs/gnss.md.
 */
import { SentenceDecoder, type SentenceType } from './nmea-decode.js';
import { MAX_FIELDS, NmeaFields } from './nmea-fields.js';
import type { NmeaSentence } from './sentences.js';

/** Counters of what the parser saw; every line lands in exactly one of passed or failed. */
export interface NmeaCounters {
  /** Lines whose checksum passed (supported or not). */
  passed: number;
  /** Lines refused: checksum wrong or missing, too long, cut short, control bytes. */
  failed: number;
  /** Passed lines of a supported type delivered to the callback. */
  delivered: number;
  /** Passed lines of a supported type with a malformed field (nothing delivered). */
  malformed: number;
  /** Passed lines of a type not decoded (vendor sentences, VTG, ZDA, GSV unless asked for ...), skipped. */
  skipped: number;
  /** Bytes outside any line (noise between sentences). */
  noiseBytes: number;
  /** Exceptions thrown by the sentence callback (caught and counted). */
  callbackErrors: number;
}

export interface NmeaParserOptions {
  /** Called with each verified, decoded sentence; the object is reused after the call. */
  onSentence(sentence: NmeaSentence): void;
  /** Line buffer size in bytes (NMEA allows 82; real receivers send up to ~100). Default 128. */
  maxLineBytes?: number;
  /**
   * Sentence types to decode besides GGA, RMC, GLL, GSA and GNS (GSV:
   * src/gnss/gsv.ts); lines of other types are skipped.
   */
  sentences?: readonly SentenceType[];
}

const DOLLAR = 0x24;
const BANG = 0x21;
const STAR = 0x2a;
const COMMA = 0x2c;
const CR = 0x0d;
const LF = 0x0a;

/** Byte classes, so the per-byte loop makes one table read and one comparison in the common case. */
const PLAIN = 0;
const START = 1;
const END = 2;
const BAD = 3;
const ASTERISK = 4;
const SEPARATOR = 5;
const BYTE_CLASS = new Uint8Array(256).map((_, c) =>
  c === DOLLAR || c === BANG
    ? START
    : c === CR || c === LF
      ? END
      : c < 0x20 || c > 0x7e
        ? BAD
        : c === STAR
          ? ASTERISK
          : c === COMMA
            ? SEPARATOR
            : PLAIN,
);

function hexValue(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  if (c >= 0x41 && c <= 0x46) return c - 0x37;
  if (c >= 0x61 && c <= 0x66) return c - 0x57;
  return -1;
}

export class NmeaParser {
  readonly counters: NmeaCounters = {
    passed: 0,
    failed: 0,
    delivered: 0,
    malformed: 0,
    skipped: 0,
    noiseBytes: 0,
    callbackErrors: 0,
  };
  private readonly line: Uint8Array;
  private length = 0;
  private inLine = false;
  /** XOR of the line's bytes between '$' and '*'. */
  private sum = 0;
  /** Offset of '*' in the line; -1 before it. */
  private star = -1;
  private fieldCount = 0;
  private readonly fields: NmeaFields;
  private readonly onSentence: (sentence: NmeaSentence) => void;
  private readonly decoder: SentenceDecoder;

  constructor(options: NmeaParserOptions) {
    this.onSentence = options.onSentence;
    const size = options.maxLineBytes ?? 128;
    if (!(size >= 16 && size <= 4096)) throw new RangeError(`maxLineBytes out of range: ${size}`);
    this.line = new Uint8Array(size);
    this.fields = new NmeaFields(this.line);
    this.decoder = new SentenceDecoder(this.line, this.fields, options.sentences);
  }

  /**
   * Feeds received bytes; sentences are delivered synchronously as their lines
   * complete. One pass per byte: the checksum and the field offsets are
   * gathered while the line is copied, so finishing a line reads no byte twice.
   */
  push(bytes: Uint8Array): void {
    const line = this.line;
    const cap = line.length;
    const f = this.fields;
    const n = bytes.length;
    let len = this.length;
    let inLine = this.inLine;
    let sum = this.sum;
    let star = this.star;
    let fieldCount = this.fieldCount;
    let i = 0;
    while (i < n) {
      let c = bytes[i++] as number;
      let k = BYTE_CLASS[c] as number;
      if (k === PLAIN && inLine && star < 0) {
        // The common case: a run of ordinary characters inside a line, before '*'.
        for (;;) {
          if (len >= cap) {
            inLine = false; // overflow: the line cannot be trusted
            this.counters.failed++;
            break;
          }
          line[len++] = c;
          sum ^= c;
          if (i >= n) break;
          c = bytes[i] as number;
          k = BYTE_CLASS[c] as number;
          if (k !== PLAIN) break; // left for the general path below, next turn
          i++;
        }
        continue;
      }
      if (k === PLAIN && inLine && len < cap) {
        line[len++] = c; // after '*': the checksum digits
      } else if (k === START) {
        if (inLine) this.counters.failed++; // cut short by a new start
        inLine = true;
        line[0] = c;
        len = 1;
        sum = 0;
        star = -1;
        fieldCount = 0;
        f.start[0] = 1;
      } else if (!inLine) {
        if (k !== END) this.counters.noiseBytes++;
      } else if (k === END) {
        inLine = false;
        if (star >= 0) {
          f.end[fieldCount] = star;
          fieldCount++;
        }
        f.count = fieldCount;
        this.finishLine(len, star, sum);
      } else if (k === BAD || len >= cap) {
        inLine = false; // control byte or overflow: the line cannot be trusted
        this.counters.failed++;
      } else {
        line[len] = c;
        if (star < 0) {
          if (k === ASTERISK) {
            star = len;
          } else {
            sum ^= c; // a comma
            if (fieldCount < MAX_FIELDS - 1) {
              f.end[fieldCount] = len;
              fieldCount++;
              f.start[fieldCount] = len + 1;
            }
          }
        }
        len++;
      }
    }
    this.length = len;
    this.inLine = inLine;
    this.sum = sum;
    this.star = star;
    this.fieldCount = fieldCount;
  }

  /** Drops a partial line (e.g. after the port was reopened). */
  reset(): void {
    this.inLine = false;
    this.length = 0;
  }

  /** Verifies the checksum `*hh` that must end the line, then decodes it. */
  private finishLine(len: number, star: number, sum: number): void {
    if (star < 6 || star !== len - 3) {
      this.counters.failed++;
      return;
    }
    const hi = hexValue(this.line[star + 1] as number);
    const lo = hexValue(this.line[star + 2] as number);
    if (hi < 0 || lo < 0 || sum !== hi * 16 + lo) {
      this.counters.failed++;
      return;
    }
    this.counters.passed++;
    this.dispatch();
  }

  private dispatch(): void {
    const sentence = this.decoder.decode();
    if (sentence === undefined) {
      this.counters.skipped++; // vendor ($P...), AIS (!), VTG, ZDA ...
    } else if (sentence === null) {
      this.counters.malformed++;
    } else {
      this.counters.delivered++;
      try {
        this.onSentence(sentence);
      } catch {
        this.counters.callbackErrors++;
      }
    }
  }
}
