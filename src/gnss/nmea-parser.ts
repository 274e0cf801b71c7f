/**
 * The NMEA 0183 push parser: bytes in (any chunking), typed sentences out.
 *
 * A line starts at '$' (or '!') and ends at CR or LF. It is kept in a fixed
 * buffer; a line longer than the buffer, a line cut by a new '$', a control
 * byte inside a line, a missing or wrong checksum all count as `failed` and
 * deliver nothing. Only after the checksum passes are the fields read
 * (TinyGPS++'s rule: commit nothing from a line that has not been verified).
 * STYLE.md practice 5; issue 5.
 */
import { FieldReader } from './nmea-fields.js';
import { decodeGga, decodeGns, decodeGsa, decodeGsv, decodeRmc, type FieldOffsets } from './nmea-decode.js';
import { Talkers, newGga, newGns, newGsa, newGsv, newRmc, talkerIndex } from './sentences.js';
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
  /** Passed lines of an unsupported type (vendor sentences, GLL, VTG ...), skipped. */
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
}

const MAX_FIELDS = 48;
const DOLLAR = 0x24;
const BANG = 0x21;
const STAR = 0x2a;
const COMMA = 0x2c;
const CR = 0x0d;
const LF = 0x0a;

function hexValue(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  if (c >= 0x41 && c <= 0x46) return c - 0x37;
  if (c >= 0x61 && c <= 0x66) return c - 0x57;
  return -1;
}

function code3(a: number, b: number, c: number): number {
  return (a << 16) | (b << 8) | c;
}
const GGA = code3(0x47, 0x47, 0x41);
const RMC = code3(0x52, 0x4d, 0x43);
const GSA = code3(0x47, 0x53, 0x41);
const GSV = code3(0x47, 0x53, 0x56);
const GNS = code3(0x47, 0x4e, 0x53);

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
  private readonly reader: FieldReader;
  private readonly fields: FieldOffsets = {
    start: new Uint16Array(MAX_FIELDS),
    end: new Uint16Array(MAX_FIELDS),
    count: 0,
  };
  private readonly onSentence: (sentence: NmeaSentence) => void;
  /** One reused object per sentence type (no allocation per sentence). */
  private readonly gga = newGga();
  private readonly rmc = newRmc();
  private readonly gsa = newGsa();
  private readonly gsv = newGsv();
  private readonly gns = newGns();

  constructor(options: NmeaParserOptions) {
    this.onSentence = options.onSentence;
    const size = options.maxLineBytes ?? 128;
    if (!(size >= 16 && size <= 4096)) throw new RangeError(`maxLineBytes out of range: ${size}`);
    this.line = new Uint8Array(size);
    this.reader = new FieldReader(this.line);
  }

  /** Feeds received bytes; sentences are delivered synchronously as their lines complete. */
  push(bytes: Uint8Array): void {
    for (let i = 0; i < bytes.length; i++) {
      const c = bytes[i] as number;
      if (c === DOLLAR || c === BANG) {
        if (this.inLine) this.counters.failed++; // cut short by a new start
        this.inLine = true;
        this.line[0] = c;
        this.length = 1;
      } else if (!this.inLine) {
        if (c !== CR && c !== LF) this.counters.noiseBytes++;
      } else if (c === CR || c === LF) {
        this.inLine = false;
        this.finishLine();
      } else if (c < 0x20 || c > 0x7e || this.length >= this.line.length) {
        this.inLine = false; // control byte or overflow: the line cannot be trusted
        this.counters.failed++;
      } else {
        this.line[this.length++] = c;
      }
    }
  }

  /** Drops a partial line (e.g. after the port was reopened). */
  reset(): void {
    this.inLine = false;
    this.length = 0;
  }

  private finishLine(): void {
    const line = this.line;
    const n = this.length;
    const star = n - 3;
    if (star < 6 || line[star] !== STAR) {
      this.counters.failed++;
      return;
    }
    const hi = hexValue(line[star + 1] as number);
    const lo = hexValue(line[star + 2] as number);
    let sum = 0;
    for (let i = 1; i < star; i++) sum ^= line[i] as number;
    if (hi < 0 || lo < 0 || sum !== hi * 16 + lo) {
      this.counters.failed++;
      return;
    }
    this.counters.passed++;
    this.dispatch(star);
  }

  private split(end: number): void {
    const f = this.fields;
    let count = 0;
    let start = 1;
    for (let i = 1; i <= end && count < MAX_FIELDS; i++) {
      if (i === end || this.line[i] === COMMA) {
        f.start[count] = start;
        f.end[count] = i;
        count++;
        start = i + 1;
      }
    }
    f.count = count;
  }

  private dispatch(star: number): void {
    this.split(star);
    const f = this.fields;
    const line = this.line;
    const addrStart = f.start[0] as number;
    if ((f.end[0] as number) - addrStart !== 5 || line[0] !== DOLLAR) {
      this.counters.skipped++; // proprietary ($P...), AIS (!) or odd addresses
      return;
    }
    const a = line[addrStart] as number;
    const b = line[addrStart + 1] as number;
    const type = code3(line[addrStart + 2] as number, line[addrStart + 3] as number, line[addrStart + 4] as number);
    const talker = Talkers[talkerIndex(a, b)] as (typeof Talkers)[number];
    const r = this.reader;
    r.begin();
    let sentence: NmeaSentence;
    let ok: boolean;
    if (type === GGA) ok = decodeGga(r, f, (sentence = this.gga));
    else if (type === RMC) ok = decodeRmc(r, f, (sentence = this.rmc));
    else if (type === GSA) ok = decodeGsa(r, f, (sentence = this.gsa));
    else if (type === GSV) ok = decodeGsv(r, f, (sentence = this.gsv));
    else if (type === GNS) ok = decodeGns(r, line, f, (sentence = this.gns));
    else {
      this.counters.skipped++;
      return;
    }
    if (!ok) {
      this.counters.malformed++;
      return;
    }
    sentence.talker = talker;
    this.counters.delivered++;
    try {
      this.onSentence(sentence);
    } catch {
      this.counters.callbackErrors++;
    }
  }
}
