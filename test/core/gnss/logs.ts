/**
 * Helpers for the GNSS log tests (portable): the list of real receiver logs,
 * their bodies without the gpsd header comments, ASCII bytes, a seeded
 * chunker, and a plain snapshot of a delivered sentence (the parser reuses
 * its objects, so a test copies what it compares).
 */
import type { LocationChannel } from '../../../src/config/model.js';
import { GSV } from '../../../src/gnss/gsv.js';
import { sentenceReader } from '../../../src/gnss/nmea-decode.js';
import { CountingNmeaParser } from '../../../src/gnss/nmea-parser.js';
import type { NmeaCounters } from '../../../src/gnss/nmea-parser.js';
import type { NmeaSentence } from '../../../src/gnss/sentences.js';
import { readFixture } from '../../support/fixtures.js';

/** Every log of test/fixtures/gnss-logs (each has a `.chk` beside it). */
export const LOG_FILES = [
  'gnss-logs/beidou-bd.log',
  'gnss-logs/bu353-glonass.log',
  'gnss-logs/garmin-geko201.log',
  'gnss-logs/garmin48.log',
  'gnss-logs/gp-320fw-2019-04-06-overflow.log',
  'gnss-logs/humminbird-M37.log',
  'gnss-logs/mt3339.log',
  'gnss-logs/neo-m8n.log',
  'gnss-logs/nmea-fuzzy-cases.log',
  'gnss-logs/quectel.log',
  'gnss-logs/sirfstarv-nmea.log',
  'gnss-logs/sounder.log',
  'gnss-logs/telit-he910.log',
  'gnss-logs/ublox-neo-m9n-nmea.log',
  'gnss-logs/ublox-zed-f9p-nmea.log',
] as const;

/** The log's sentences as a receiver would send them: header (`#`) lines removed. */
export function logBody(path: string): string {
  return readFixture(path)
    .split('\n')
    .filter((l) => !l.startsWith('#'))
    .join('\n');
}

/** Latin-1 bytes of a string (NMEA is ASCII). */
export function ascii(text: string): Uint8Array {
  const out = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) out[i] = text.charCodeAt(i) & 0xff;
  return out;
}

/** A small deterministic PRNG (mulberry32), so random chunkings are reproducible. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A plain copy of a delivered sentence (typed arrays cut to their counts; NaN kept). */
export function copySentence(s: NmeaSentence): Record<string, unknown> {
  switch (s.type) {
    case 'GSA':
      return { ...s, prns: Array.from(s.prns.subarray(0, s.prnCount)) };
    case 'GSV':
      return {
        ...s,
        prn: Array.from(s.prn.subarray(0, s.count)),
        elevationDeg: Array.from(s.elevationDeg.subarray(0, s.count)),
        azimuthDeg: Array.from(s.azimuthDeg.subarray(0, s.count)),
        snrDb: Array.from(s.snrDb.subarray(0, s.count)),
      };
    default:
      return { ...s };
  }
}

/** The copy as JSON, for comparing whole streams. */
export function snapshot(s: NmeaSentence): string {
  return JSON.stringify(copySentence(s));
}

/** Parses `bytes` delivered in the chunk sizes `nextSize` yields; returns snapshots and counters. */
export function parseInChunks(
  bytes: Uint8Array,
  nextSize: () => number,
): { sentences: string[]; counters: NmeaCounters } {
  const sentences: string[] = [];
  const parser = new CountingNmeaParser({ onLine: sentenceReader((s) => sentences.push(snapshot(s)), [GSV]) });
  for (let i = 0; i < bytes.length;) {
    const n = Math.max(1, nextSize());
    parser.push(bytes.subarray(i, i + n));
    i += n;
  }
  return { sentences, counters: { ...parser.counters } };
}

/** `$<body>*<checksum>\r\n` for a sentence body such as `GPGGA,...`. */
export function nmea(body: string): string {
  let sum = 0;
  for (let i = 0; i < body.length; i++) sum ^= body.charCodeAt(i);
  return `$${body}*${(sum < 16 ? '0' : '') + sum.toString(16).toUpperCase()}\r\n`;
}

/** A location channel as the config parser makes it. */
export function locationChannel(key = 'gps', timeoutMs = 1e12): LocationChannel {
  const common = { key, scaleGain: 1, scaleOffset: 0, scanIntervalMs: 1000 };
  return { ...common, transmitEvents: [], type: 'location', timeoutMs };
}
