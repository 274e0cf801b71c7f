/**
 * The typed NMEA 0183 sentences the parser delivers (GGA, RMC, GLL, GSA, GSV,
 * GNS from any talker), and the talker table.
 *
 * The parser reuses one object per sentence type: a consumer reads what it
 * needs during the callback and copies what it keeps. Unknown numbers are NaN;
 * unknown characters are '' (single-character strings come from a constant
 * table, so reading them allocates nothing).
 */

/** Talkers the parser names; any other two-letter talker is delivered as 'other'. */
export const Talkers = ['GP', 'GN', 'GL', 'GA', 'GB', 'BD', 'GQ', 'QZ', 'PQ', 'GI', 'other'] as const;
export type Talker = (typeof Talkers)[number];

/** Index of 'other' in Talkers. */
export const OTHER_TALKER = Talkers.length - 1;

/** Each named talker's two letters as one number (first << 8 | second). */
const TALKER_CODES = Uint16Array.from(Talkers.slice(0, OTHER_TALKER), (t) => (t.charCodeAt(0) << 8) | t.charCodeAt(1));

/**
 * Talker index of two ASCII bytes, or OTHER_TALKER. Numbers only: on XS a
 * method call on a primitive string (`charCodeAt`) allocates a wrapper.
 */
export function talkerIndex(a: number, b: number): number {
  const code = (a << 8) | b;
  for (let i = 0; i < OTHER_TALKER; i++) if (TALKER_CODES[i] === code) return i;
  return OTHER_TALKER;
}

/** Printable ASCII as one-character strings, indexed by code; '' for 0. */
export const ASCII: readonly string[] = Array.from({ length: 128 }, (_, i) =>
  i >= 0x20 && i < 0x7f ? String.fromCharCode(i) : '',
);

interface Common {
  talker: Talker;
}

/** GGA: time, position and fix quality. */
export interface GgaSentence extends Common {
  readonly type: 'GGA';
  /** UTC time of day, milliseconds. */
  timeMs: number;
  lat: number;
  lon: number;
  /** 0 invalid, 1 GPS, 2 DGPS, 4 RTK fixed, 5 RTK float, 6 estimated ... */
  quality: number;
  /** Satellites used (of this talker's constellation when the talker is not GN). */
  sats: number;
  hdop: number;
  /** Altitude above mean sea level, metres. */
  altM: number;
  geoidSepM: number;
}

/** RMC: time, date, status, position, speed and course. */
export interface RmcSentence extends Common {
  readonly type: 'RMC';
  timeMs: number;
  /** Days since 1970-01-01; NaN when absent. */
  dateDays: number;
  /** 'A' valid, 'V' warning. */
  status: string;
  lat: number;
  lon: number;
  speedKnots: number;
  courseDeg: number;
  /** FAA mode indicator (NMEA 2.3+): A, D, E, F, M, N, P, R, S; '' when absent. */
  mode: string;
  /** Navigational status (NMEA 4.10+): S, C, U, V; '' when absent. */
  navStatus: string;
}

/** GLL: position, time and status (older Garmin handhelds, marine receivers). */
export interface GllSentence extends Common {
  readonly type: 'GLL';
  /** UTC time of day, milliseconds; NaN when absent (some receivers send no time). */
  timeMs: number;
  lat: number;
  lon: number;
  /** 'A' valid, 'V' invalid; '' when absent. */
  status: string;
  /** FAA mode indicator (NMEA 2.3+); '' when absent. */
  mode: string;
}

/** GSA: fix mode, satellites used and DOPs (one per constellation on NMEA 4.10+). */
export interface GsaSentence extends Common {
  readonly type: 'GSA';
  /** 'A' automatic, 'M' manual. */
  selection: string;
  /** 1 no fix, 2 2D, 3 3D; NaN when absent. */
  fixMode: number;
  /** PRNs used; the first `prnCount` entries are meaningful. */
  readonly prns: Uint16Array;
  prnCount: number;
  pdop: number;
  hdop: number;
  vdop: number;
  /** GNSS system id (NMEA 4.10+): 1 GPS, 2 GLONASS, 3 Galileo, 4 BeiDou, 5 QZSS, 6 NavIC; NaN when absent. */
  systemId: number;
}

/** GSV: satellites in view, up to four per sentence. */
export interface GsvSentence extends Common {
  readonly type: 'GSV';
  messageCount: number;
  messageNumber: number;
  satsInView: number;
  /** Entries in the arrays below. */
  count: number;
  readonly prn: Uint16Array;
  readonly elevationDeg: Float64Array;
  readonly azimuthDeg: Float64Array;
  /** Signal to noise ratio, dB-Hz; NaN when not tracked. */
  readonly snrDb: Float64Array;
  /** Signal id (NMEA 4.10+); NaN when absent. */
  signalId: number;
}

/** GNS: multi-constellation fix data. */
export interface GnsSentence extends Common {
  readonly type: 'GNS';
  timeMs: number;
  lat: number;
  lon: number;
  /** Mode indicator characters, one per constellation (GPS, GLONASS, Galileo, BeiDou, ...). */
  modes: string;
  /** True when any mode character is neither 'N' nor empty. */
  anyFix: boolean;
  sats: number;
  hdop: number;
  altM: number;
  geoidSepM: number;
  navStatus: string;
}

export type NmeaSentence = GgaSentence | RmcSentence | GllSentence | GsaSentence | GsvSentence | GnsSentence;

/** Empty sentence objects, one per type, for the parser to reuse. */
const timedPosition = () => ({ talker: 'GP' as Talker, timeMs: NaN, lat: NaN, lon: NaN });
const fixData = () => ({ ...timedPosition(), sats: NaN, hdop: NaN, altM: NaN, geoidSepM: NaN });

export function newGga(): GgaSentence {
  return { type: 'GGA', ...fixData(), quality: NaN };
}

export function newRmc(): RmcSentence {
  const more = { speedKnots: NaN, courseDeg: NaN, mode: '', navStatus: '' };
  return { type: 'RMC', ...timedPosition(), dateDays: NaN, status: '', ...more };
}

export function newGll(): GllSentence {
  return { type: 'GLL', ...timedPosition(), status: '', mode: '' };
}

export function newGsa(): GsaSentence {
  const g = { type: 'GSA', talker: 'GP', selection: '', fixMode: NaN, prns: new Uint16Array(12), prnCount: 0 } as const;
  return { ...g, pdop: NaN, hdop: NaN, vdop: NaN, systemId: NaN };
}

export function newGns(): GnsSentence {
  return { type: 'GNS', ...fixData(), modes: '', anyFix: false, navStatus: '' };
}
