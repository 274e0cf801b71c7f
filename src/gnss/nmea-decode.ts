/**
 * Decoders of the supported sentences, from the fields of one line whose
 * checksum has already passed into the reused sentence objects. A decoder
 * first says how many fields it needs (fewer is malformed) and sets `bad` when
 * a field is malformed; the caller then delivers nothing,
 * so nothing from that line is committed. Extra trailing fields (NMEA 4.10+
 * system and signal ids, vendor additions) are read where known and
 * otherwise ignored.
 *
 * The fix (src/gnss/fix-tracker.ts) uses GGA, RMC, GLL, GSA and GNS, which are
 * always decoded. Further types are decoded when the parser is given them
 * (`SentenceType`): GSV, satellites in view, lives in src/gnss/gsv.ts, so a
 * firmware that only tracks the fix does not link it.
 */
import type { NmeaFields } from './nmea-fields.js';
import { ASCII, Talkers, newGga, newGll, newGns, newGsa, newRmc, talkerIndex } from './sentences.js';
import type { GgaSentence, GllSentence, GnsSentence, GsaSentence } from './sentences.js';
import type { NmeaSentence, RmcSentence } from './sentences.js';

/** Fields `i` to `i + 3` (latitude, N/S, longitude, E/W) into `out`, in degrees. */
function position(r: NmeaFields, i: number, out: { lat: number; lon: number }): void {
  r.angle(i, 90);
  out.lat = r.value;
  r.angle(i + 2, 180);
  out.lon = r.value;
}

/** What GGA and GNS share: time (1), position (2-5), satellites (7), HDOP (8), altitude (9), geoid separation. */
function fix(r: NmeaFields, geoidField: number, out: GgaSentence | GnsSentence): void {
  out.timeMs = r.timeOfDayMs(1);
  position(r, 2, out);
  out.sats = r.int(7);
  r.num(8);
  out.hdop = r.value;
  r.num(9);
  out.altM = r.value;
  r.num(geoidField);
  out.geoidSepM = r.value;
}

function decodeGga(r: NmeaFields, out: GgaSentence): void {
  r.expect(10);
  fix(r, 11, out);
  out.quality = r.int(6);
}

function decodeRmc(r: NmeaFields, out: RmcSentence): void {
  r.expect(10);
  out.timeMs = r.timeOfDayMs(1);
  out.status = r.char(2);
  position(r, 3, out);
  r.num(7);
  out.speedKnots = r.value;
  r.num(8);
  out.courseDeg = r.value;
  out.dateDays = r.dateDays(9);
  out.mode = r.char(12);
  out.navStatus = r.char(13);
}

/** GLL: position (1-4), then time (5), status (6) and mode (7), each absent on older receivers. */
function decodeGll(r: NmeaFields, out: GllSentence): void {
  r.expect(5);
  position(r, 1, out);
  out.timeMs = r.timeOfDayMs(5);
  out.status = r.char(6);
  out.mode = r.char(7);
}

function decodeGsa(r: NmeaFields, out: GsaSentence): void {
  r.expect(18);
  out.selection = r.char(1);
  out.fixMode = r.int(2);
  let n = 0;
  for (let i = 3; i <= 14; i++) {
    const prn = r.int(i);
    if (prn === prn) out.prns[n++] = prn; // not NaN
  }
  out.prnCount = n;
  r.num(15);
  out.pdop = r.value;
  r.num(16);
  out.hdop = r.value;
  r.num(17);
  out.vdop = r.value;
  // NMEA 4.10 system id; SiRF puts a TDOP there instead ("3.3"): read leniently.
  out.systemId = r.lenientInt(18);
}

/**
 * GNS: the mode field (6) holds one capital letter per constellation; its
 * string is made only when its bytes differ from the last one's (`modeBytes`),
 * so an unchanged field allocates nothing (bytes are compared, not string
 * characters: a method call on a string allocates on XS).
 */
function decodeGns(r: NmeaFields, line: Uint8Array, modeBytes: Uint8Array, out: GnsSentence): void {
  r.expect(10);
  if (r.bad) return;
  fix(r, 10, out);
  out.navStatus = r.char(13);
  const start = r.start[6] as number;
  const n = (r.end[6] as number) - start;
  let same = n === modeBytes[0] && n < modeBytes.length;
  let anyFix = false;
  for (let k = 0; k < n; k++) {
    const c = line[start + k] as number;
    if (c < 0x41 || c > 0x5a) r.bad = true; // mode characters are capital letters
    if (c !== 0x4e) anyFix = true; // 'N': no fix
    same = same && modeBytes[k + 1] === c;
  }
  out.anyFix = anyFix;
  if (same) return;
  let modes = '';
  for (let k = 0; k < n; k++) {
    const c = line[start + k] as number;
    modes += ASCII[c & 0x7f] as string;
    modeBytes[k + 1] = c; // past the end: ignored
  }
  out.modes = modes;
  modeBytes[0] = n;
}

/** A further sentence type the parser decodes when it is given it (GSV: src/gnss/gsv.ts). */
export interface SentenceType<T extends NmeaSentence = NmeaSentence> {
  /** The type's three letters as one number (`code3`). */
  readonly code: number;
  /** A new sentence object, which the parser reuses for every line of the type. */
  create(): T;
  /** Decodes the fields into `out`; sets `r.bad` when the line is malformed (see NmeaFields.expect). */
  decode(r: NmeaFields, out: T): void;
}

/** The three letters of a sentence type as one number. */
export function code3(a: number, b: number, c: number): number {
  return (a << 16) | (b << 8) | c;
}

const GGA = code3(0x47, 0x47, 0x41);
const RMC = code3(0x52, 0x4d, 0x43);
const GSA = code3(0x47, 0x53, 0x41);
const GNS = code3(0x47, 0x4e, 0x53);
const GLL = code3(0x47, 0x4c, 0x4c);

/** Decodes verified lines of one line buffer into one reused object per sentence type. */
export class SentenceDecoder {
  private readonly gga = newGga();
  private readonly rmc = newRmc();
  private readonly gsa = newGsa();
  private readonly gns = newGns();
  private readonly gll = newGll();
  /** Length, then the bytes, of the last GNS mode field (0xff: it did not fit). */
  private readonly modeBytes = new Uint8Array(9).fill(0xff);

  /** Further types and their reused objects. */
  private readonly extra: { type: SentenceType; out: NmeaSentence }[];

  constructor(
    private readonly line: Uint8Array,
    private readonly fields: NmeaFields,
    extra: readonly SentenceType[] = [],
  ) {
    this.extra = extra.map((type) => ({ type, out: type.create() }));
  }

  /** The decoded sentence; null when a field is malformed; undefined for a type we skip. */
  decode(): NmeaSentence | null | undefined {
    const line = this.line;
    const r = this.fields;
    const at = r.start[0] as number;
    if ((r.end[0] as number) - at !== 5 || line[0] !== 0x24) return undefined; // '$' and a 5-letter address only
    const type = code3(line[at + 2] as number, line[at + 3] as number, line[at + 4] as number);
    let s: NmeaSentence;
    if (type === GGA) decodeGga(r, (s = this.gga));
    else if (type === RMC) decodeRmc(r, (s = this.rmc));
    else if (type === GSA) decodeGsa(r, (s = this.gsa));
    else if (type === GNS) decodeGns(r, line, this.modeBytes, (s = this.gns));
    else if (type === GLL) decodeGll(r, (s = this.gll));
    else return this.decodeExtra(type);
    return this.deliver(s);
  }

  /** A line of a further type, or undefined when the parser was not given its type. */
  private decodeExtra(code: number): NmeaSentence | null | undefined {
    for (let i = 0; i < this.extra.length; i++) {
      const { type, out } = this.extra[i] as { type: SentenceType; out: NmeaSentence };
      if (type.code !== code) continue;
      type.decode(this.fields, out);
      return this.deliver(out);
    }
    return undefined;
  }

  /** The sentence with its talker, or null when a field was malformed. */
  private deliver(s: NmeaSentence): NmeaSentence | null {
    if (this.fields.bad) return null;
    const at = this.fields.start[0] as number;
    s.talker = Talkers[talkerIndex(this.line[at] as number, this.line[at + 1] as number)] as (typeof Talkers)[number];
    return s;
  }
}
