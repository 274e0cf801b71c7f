/**
 * Typed sentences from verified lines, for the host tools, tests and benches
 * (`npm run nmea`, bench/gnss.ts): GGA, RMC, GLL, GSA and GNS with every field,
 * and further types when asked for (GSV: src/gnss/gsv.ts). The firmware does
 * not link this module: its fix tracker reads the few fields a fix uses
 * straight from the line (src/gnss/fix-tracker.ts).
 *
 * `sentenceReader(onSentence)` is an NmeaParser `onLine`: it decodes a line
 * into the reused object of its type and calls `onSentence` unless a field is
 * malformed (`fields.bad`), so nothing from a malformed line is delivered.
 * Extra trailing fields (NMEA 4.10+ system and signal ids, vendor additions)
 * are read where known and otherwise ignored.
 */
import type { NmeaFields } from './nmea-fields.js';
import { ASCII, Talkers, newGga, newGll, newGns, newGsa, newRmc, talkerIndex } from './sentences.js';
import type { GgaSentence, GllSentence, GnsSentence, GsaSentence } from './sentences.js';
import type { NmeaSentence, RmcSentence } from './sentences.js';

/** The single character of a one-byte field as a string ('' when empty; from a table: no allocation). */
export function charField(r: NmeaFields, i: number): string {
  return ASCII[r.char(i) & 0x7f] as string;
}

/** An integer in an optional trailing field whose meaning varies by vendor: NaN, never malformed. */
export function lenientInt(r: NmeaFields, i: number): number {
  const wasBad = r.bad;
  const v = r.int(i);
  r.bad = wasBad;
  return v;
}

/**
 * A date `ddmmyy` as days since 1970-01-01 (two-digit years 80..99 are
 * 1980..1999, others 2000..2079); NaN when empty.
 */
export function dateDays(r: NmeaFields, i: number): number {
  const v = r.int(i);
  const n = i < r.count ? (r.end[i] as number) - (r.start[i] as number) : 0;
  if (v !== v) return v;
  const day = Math.floor(v / 10000);
  const month = Math.floor(v / 100) % 100;
  const yy = v % 100;
  if (n !== 6 || day < 1 || day > 31 || month < 1 || month > 12) {
    r.bad = true;
    return NaN;
  }
  return daysFromCivil(yy >= 80 ? 1900 + yy : 2000 + yy, month, day) | 0;
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

/** Fields `i` to `i + 3` (latitude, N/S, longitude, E/W) into `out`, in degrees. */
function position(r: NmeaFields, i: number, out: { lat: number; lon: number }): void {
  out.lat = r.angle(i, 90);
  out.lon = r.angle(i + 2, 180);
}

/** What GGA and GNS share: time (1), position (2-5), satellites (7), HDOP (8), altitude (9), geoid separation. */
function fix(r: NmeaFields, geoidField: number, out: GgaSentence | GnsSentence): void {
  out.timeMs = r.time(1);
  position(r, 2, out);
  out.sats = r.int(7);
  out.hdop = r.num(8);
  out.altM = r.num(9);
  out.geoidSepM = r.num(geoidField);
}

function decodeGga(r: NmeaFields, out: GgaSentence): void {
  r.expect(10);
  fix(r, 11, out);
  out.quality = r.int(6);
}

function decodeRmc(r: NmeaFields, out: RmcSentence): void {
  r.expect(10);
  out.timeMs = r.time(1);
  out.status = charField(r, 2);
  position(r, 3, out);
  out.speedKnots = r.num(7);
  out.courseDeg = r.num(8);
  out.dateDays = dateDays(r, 9);
  out.mode = charField(r, 12);
  out.navStatus = charField(r, 13);
}

/** GLL: position (1-4), then time (5), status (6) and mode (7), each absent on older receivers. */
function decodeGll(r: NmeaFields, out: GllSentence): void {
  r.expect(5);
  position(r, 1, out);
  out.timeMs = r.time(5);
  out.status = charField(r, 6);
  out.mode = charField(r, 7);
}

function decodeGsa(r: NmeaFields, out: GsaSentence): void {
  r.expect(18);
  out.selection = charField(r, 1);
  out.fixMode = r.int(2);
  let n = 0;
  for (let i = 3; i <= 14; i++) {
    const prn = r.int(i);
    if (prn === prn) out.prns[n++] = prn; // not NaN
  }
  out.prnCount = n;
  out.pdop = r.num(15);
  out.hdop = r.num(16);
  out.vdop = r.num(17);
  // NMEA 4.10 system id; SiRF puts a TDOP there instead ("3.3"): read leniently.
  out.systemId = lenientInt(r, 18);
}

/**
 * GNS: the mode field (6) holds one capital letter per constellation; its
 * string is made only when its bytes differ from the last one's (`modeBytes`),
 * so an unchanged field allocates nothing (bytes are compared, not string
 * characters: a method call on a string allocates on XS).
 */
function decodeGns(r: NmeaFields, modeBytes: Uint8Array, out: GnsSentence): void {
  r.expect(10);
  if (r.bad) return;
  fix(r, 10, out);
  out.navStatus = charField(r, 13);
  const line = r.line;
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

/** A further sentence type `sentenceReader` decodes when it is given it (GSV: src/gnss/gsv.ts). */
export interface SentenceType<T extends NmeaSentence = NmeaSentence> {
  /** The type's three letters as one number (`code3`), as NmeaFields.type. */
  readonly code: number;
  /** A new sentence object, which is reused for every line of the type. */
  create(): T;
  /** Decodes the fields into `out`; a malformed field sets `r.bad`. */
  decode(r: NmeaFields, out: T): void;
}

/** The three letters of a sentence type as one number. */
export function code3(a: number, b: number, c: number): number {
  return (a << 16) | (b << 8) | c;
}

/** The built-in types: GGA, RMC, GSA, GNS and GLL. */
function builtIn(): SentenceType[] {
  const modeBytes = new Uint8Array(9).fill(0xff); // length, then the bytes, of the last GNS mode field
  const type = <T extends NmeaSentence>(code: number, create: () => T, decode: (r: NmeaFields, out: T) => void) =>
    ({ code, create, decode }) as unknown as SentenceType;
  return [
    type(code3(0x47, 0x47, 0x41), newGga, decodeGga),
    type(code3(0x52, 0x4d, 0x43), newRmc, decodeRmc),
    type(code3(0x47, 0x53, 0x41), newGsa, decodeGsa),
    type(code3(0x47, 0x4e, 0x53), newGns, (r, out: GnsSentence) => decodeGns(r, modeBytes, out)),
    type(code3(0x47, 0x4c, 0x4c), newGll, decodeGll),
  ];
}

/**
 * An NmeaParser `onLine` that delivers typed sentences: GGA, RMC, GSA, GNS,
 * GLL and the `extra` types, each in one reused object (read what you need
 * during the call; copy what you keep). Other types are skipped.
 */
export function sentenceReader(
  onSentence: (sentence: NmeaSentence) => void,
  extra: readonly SentenceType[] = [],
): (fields: NmeaFields) => boolean {
  const types = [...builtIn(), ...extra];
  const outs = types.map((t) => t.create());
  return (r) => {
    for (let i = 0; i < types.length; i++) {
      const type = types[i] as SentenceType;
      if (type.code !== r.type) continue;
      const out = outs[i] as NmeaSentence;
      type.decode(r, out);
      out.talker = Talkers[talkerIndex(r.talker >> 8, r.talker & 0xff)] as (typeof Talkers)[number];
      if (!r.bad) onSentence(out);
      return true;
    }
    return false;
  };
}
