/**
 * Decoders of the supported sentences, from the field offsets of one line whose
 * checksum has already passed into the reused sentence objects. A decoder
 * returns false when a field is malformed; the caller then delivers nothing,
 * so nothing from that line is committed. Extra trailing fields (NMEA 4.10+
 * system and signal ids, vendor additions) are read where known and
 * otherwise ignored.
 */
import { FieldReader } from './nmea-fields.js';
import { ASCII, Talkers, newGga, newGll, newGns, newGsa, newGsv, newRmc, talkerIndex } from './sentences.js';
import type { GgaSentence, GllSentence, GnsSentence, GsaSentence, GsvSentence } from './sentences.js';
import type { NmeaSentence, RmcSentence } from './sentences.js';

/** Start and end offsets of each field of the current line (field 0 is the address). */
export interface FieldOffsets {
  readonly start: Uint16Array;
  readonly end: Uint16Array;
  count: number;
}

function s(f: FieldOffsets, i: number): number {
  return i < f.count ? (f.start[i] as number) : 0;
}
function e(f: FieldOffsets, i: number): number {
  return i < f.count ? (f.end[i] as number) : 0;
}

function ch(r: FieldReader, f: FieldOffsets, i: number): string {
  return ASCII[r.char(s(f, i), e(f, i)) & 0x7f] as string;
}

/** Fields `i` to `i + 3` (latitude, N/S, longitude, E/W) into `out`, in degrees. */
function position(r: FieldReader, f: FieldOffsets, i: number, out: { lat: number; lon: number }): void {
  r.angle(s(f, i), e(f, i), s(f, i + 1), e(f, i + 1), 90);
  out.lat = r.value;
  r.angle(s(f, i + 2), e(f, i + 2), s(f, i + 3), e(f, i + 3), 180);
  out.lon = r.value;
}

/** What GGA and GNS share after the position: satellites (7), HDOP (8), altitude (9), geoid separation. */
function fixQuality(r: FieldReader, f: FieldOffsets, geoidField: number, out: GgaSentence | GnsSentence): void {
  out.sats = r.integer(s(f, 7), e(f, 7));
  r.decimal(s(f, 8), e(f, 8));
  out.hdop = r.value;
  r.decimal(s(f, 9), e(f, 9));
  out.altM = r.value;
  r.decimal(s(f, geoidField), e(f, geoidField));
  out.geoidSepM = r.value;
}

export function decodeGga(r: FieldReader, f: FieldOffsets, out: GgaSentence): boolean {
  if (f.count < 10) return false;
  out.timeMs = r.timeOfDayMs(s(f, 1), e(f, 1));
  position(r, f, 2, out);
  out.quality = r.integer(s(f, 6), e(f, 6));
  fixQuality(r, f, 11, out);
  return !r.bad;
}

export function decodeRmc(r: FieldReader, f: FieldOffsets, out: RmcSentence): boolean {
  if (f.count < 10) return false;
  out.timeMs = r.timeOfDayMs(s(f, 1), e(f, 1));
  out.status = ch(r, f, 2);
  position(r, f, 3, out);
  r.decimal(s(f, 7), e(f, 7));
  out.speedKnots = r.value;
  r.decimal(s(f, 8), e(f, 8));
  out.courseDeg = r.value;
  out.dateDays = r.dateDays(s(f, 9), e(f, 9));
  out.mode = ch(r, f, 12);
  out.navStatus = ch(r, f, 13);
  return !r.bad;
}

/** GLL: position (1-4), then time (5), status (6) and mode (7), each absent on older receivers. */
export function decodeGll(r: FieldReader, f: FieldOffsets, out: GllSentence): boolean {
  if (f.count < 5) return false;
  position(r, f, 1, out);
  out.timeMs = r.timeOfDayMs(s(f, 5), e(f, 5));
  out.status = ch(r, f, 6);
  out.mode = ch(r, f, 7);
  return !r.bad;
}

export function decodeGsa(r: FieldReader, f: FieldOffsets, out: GsaSentence): boolean {
  if (f.count < 18) return false;
  out.selection = ch(r, f, 1);
  out.fixMode = r.integer(s(f, 2), e(f, 2));
  let n = 0;
  for (let i = 3; i <= 14; i++) {
    const prn = r.integer(s(f, i), e(f, i));
    if (!Number.isNaN(prn)) out.prns[n++] = prn;
  }
  out.prnCount = n;
  r.decimal(s(f, 15), e(f, 15));
  out.pdop = r.value;
  r.decimal(s(f, 16), e(f, 16));
  out.hdop = r.value;
  r.decimal(s(f, 17), e(f, 17));
  out.vdop = r.value;
  // NMEA 4.10 system id; SiRF puts a TDOP there instead ("3.3"): read leniently.
  out.systemId = f.count > 18 ? r.lenientInteger(s(f, 18), e(f, 18)) : NaN;
  return !r.bad;
}

export function decodeGsv(r: FieldReader, f: FieldOffsets, out: GsvSentence): boolean {
  if (f.count < 4) return false;
  out.messageCount = r.integer(s(f, 1), e(f, 1));
  out.messageNumber = r.integer(s(f, 2), e(f, 2));
  out.satsInView = r.integer(s(f, 3), e(f, 3));
  // Four fields per satellite after the header; one odd field left over is the signal id (4.10+).
  const rest = f.count - 4;
  const sats = Math.min(4, Math.floor(rest / 4));
  for (let k = 0; k < sats; k++) {
    const i = 4 + k * 4;
    out.prn[k] = r.integer(s(f, i), e(f, i)) || 0;
    r.decimal(s(f, i + 1), e(f, i + 1));
    out.elevationDeg[k] = r.value;
    r.decimal(s(f, i + 2), e(f, i + 2));
    out.azimuthDeg[k] = r.value;
    r.decimal(s(f, i + 3), e(f, i + 3));
    out.snrDb[k] = r.value;
  }
  out.count = sats;
  out.signalId = rest % 4 === 1 ? r.lenientInteger(s(f, f.count - 1), e(f, f.count - 1)) : NaN;
  return !r.bad;
}

/** The bytes of the last GNS mode field, so an unchanged field reuses its string. */
export interface ModeCache {
  readonly bytes: Uint8Array;
  /** Bytes held; -1 when the last field did not fit. */
  length: number;
}

/**
 * The mode field as a string, reusing `previous` when its bytes are those of
 * the last field (no allocation per sentence; bytes are compared, not string
 * characters, since a method call on a string allocates on XS).
 */
function modeString(buf: Uint8Array, start: number, end: number, cache: ModeCache, previous: string): string {
  const n = end - start;
  if (n === cache.length) {
    let same = true;
    for (let i = 0; i < n && same; i++) same = cache.bytes[i] === buf[start + i];
    if (same) return previous;
  }
  cache.length = n <= cache.bytes.length ? n : -1;
  let out = '';
  for (let i = 0; i < n; i++) {
    const c = buf[start + i] as number;
    if (i < cache.bytes.length) cache.bytes[i] = c;
    out += ASCII[c & 0x7f] as string;
  }
  return out;
}

export function decodeGns(
  r: FieldReader,
  buf: Uint8Array,
  f: FieldOffsets,
  cache: ModeCache,
  out: GnsSentence,
): boolean {
  if (f.count < 10) return false;
  out.timeMs = r.timeOfDayMs(s(f, 1), e(f, 1));
  position(r, f, 2, out);
  const start = s(f, 6);
  const end = e(f, 6);
  out.modes = modeString(buf, start, end, cache, out.modes);
  let anyFix = false;
  for (let i = start; i < end; i++) {
    const c = buf[i] as number;
    if (c < 0x41 || c > 0x5a) r.bad = true; // mode characters are capital letters
    if (c !== 0x4e) anyFix = true; // 'N': no fix
  }
  out.anyFix = anyFix;
  fixQuality(r, f, 10, out);
  out.navStatus = f.count > 13 ? ch(r, f, 13) : '';
  return !r.bad;
}

function code3(a: number, b: number, c: number): number {
  return (a << 16) | (b << 8) | c;
}
const GGA = code3(0x47, 0x47, 0x41);
const RMC = code3(0x52, 0x4d, 0x43);
const GSA = code3(0x47, 0x53, 0x41);
const GSV = code3(0x47, 0x53, 0x56);
const GNS = code3(0x47, 0x4e, 0x53);
const GLL = code3(0x47, 0x4c, 0x4c);

/** Decodes verified lines of one line buffer into one reused object per sentence type. */
export class SentenceDecoder {
  private readonly reader: FieldReader;
  private readonly gga = newGga();
  private readonly rmc = newRmc();
  private readonly gsa = newGsa();
  private readonly gsv = newGsv();
  private readonly gns = newGns();
  private readonly gll = newGll();
  private readonly modes: ModeCache = { bytes: new Uint8Array(8), length: 0 };

  constructor(private readonly line: Uint8Array) {
    this.reader = new FieldReader(line);
  }

  /** The decoded sentence; null when a field is malformed; undefined for a type we skip. */
  decode(f: FieldOffsets): NmeaSentence | null | undefined {
    const line = this.line;
    const at = f.start[0] as number;
    if ((f.end[0] as number) - at !== 5 || line[0] !== 0x24) return undefined; // '$' and a 5-letter address only
    const type = code3(line[at + 2] as number, line[at + 3] as number, line[at + 4] as number);
    const r = this.reader;
    r.begin();
    let sentence: NmeaSentence;
    let ok: boolean;
    if (type === GGA) ok = decodeGga(r, f, (sentence = this.gga));
    else if (type === RMC) ok = decodeRmc(r, f, (sentence = this.rmc));
    else if (type === GSA) ok = decodeGsa(r, f, (sentence = this.gsa));
    else if (type === GSV) ok = decodeGsv(r, f, (sentence = this.gsv));
    else if (type === GNS) ok = decodeGns(r, line, f, this.modes, (sentence = this.gns));
    else if (type === GLL) ok = decodeGll(r, f, (sentence = this.gll));
    else return undefined;
    if (!ok) return null;
    sentence.talker = Talkers[talkerIndex(line[at] as number, line[at + 1] as number)] as (typeof Talkers)[number];
    return sentence;
  }
}
