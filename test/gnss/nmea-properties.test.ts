/**
 * Property tests of the NMEA parser and fix tracker (fast-check, Node only):
 * random bytes, truncated, spliced and corrupted sentences never throw, and
 * nothing of a line whose checksum fails ever reaches the fix.
 */
import fc from 'fast-check';
import { FixTracker } from '../../src/gnss/fix-tracker.js';
import { EpochTracker } from '../../src/gnss/epoch-tracker.js';
import { CountingNmeaParser } from '../../src/gnss/nmea-parser.js';
import { FakeClock } from '../fakes/fake-clock.js';
import { assert } from '../support/assert.js';
import { LOG_FILES, ascii, logBody, parseInChunks } from '../core/gnss/logs.js';

/** Every checksummed sentence line of every log: the material to mangle. */
const LINES: string[] = LOG_FILES.flatMap((p) =>
  logBody(p)
    .split('\n')
    .map((l) => l.replace(/\r$/, ''))
    .filter((l) => /^\$.*\*[0-9A-F]{2}$/.test(l)),
);

/** Independent oracle: does this line (without CRLF) carry a correct checksum? */
function checksumPasses(line: string): boolean {
  const m = /^\$([^$!*\r\n]*)\*([0-9A-Fa-f]{2})$/.exec(line);
  if (m === null || line.length > 128) return false;
  let sum = 0;
  for (const c of m[1] ?? '') sum ^= c.charCodeAt(0);
  return sum === parseInt(m[2] ?? '', 16) && !/[^\x20-\x7e]/.test(line);
}

function fixState(lines: readonly string[], chunk: number): string {
  const tracker = new EpochTracker({ clock: new FakeClock() });
  const parser = new CountingNmeaParser({ onLine: (f) => tracker.onLine(f) });
  const bytes = ascii(lines.map((l) => l + '\r\n').join(''));
  for (let i = 0; i < bytes.length; i += chunk) parser.push(bytes.subarray(i, i + chunk));
  const { lat, lon, alt, pdop, hdop, vdop, sats, timeOfDayMs, valid, epochs } = tracker;
  return JSON.stringify({ lat, lon, alt, pdop, hdop, vdop, sats, timeOfDayMs, valid, epochs });
}

const printable = fc.integer({ min: 0x20, max: 0x7e }).filter((c) => c !== 0x24 && c !== 0x21);

/** A real line, or one truncated, spliced with another, or with one byte changed. */
const mangledLine = fc.oneof(
  fc.constantFrom(...LINES),
  fc.tuple(fc.constantFrom(...LINES), fc.nat()).map(([l, n]) => l.slice(0, 1 + (n % l.length))),
  fc
    .tuple(fc.constantFrom(...LINES), fc.constantFrom(...LINES), fc.nat(), fc.nat())
    .map(([a, b, i, j]) => a.slice(0, 1 + (i % a.length)) + b.slice(1 + (j % (b.length - 1)))),
  fc.tuple(fc.constantFrom(...LINES), fc.nat(), printable).map(([l, i, c]) => {
    const at = 1 + (i % (l.length - 1));
    return l.slice(0, at) + String.fromCharCode(c) + l.slice(at + 1);
  }),
);

describe('gnss: parser properties (fast-check)', () => {
  it('never throws on random bytes, and accounts for every byte', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 2000 }), fc.integer({ min: 1, max: 64 }), (bytes, chunk) => {
        const tracker = new FixTracker({ clock: new FakeClock() });
        const parser = new CountingNmeaParser({ onLine: (f) => tracker.onLine(f) });
        for (let i = 0; i < bytes.length; i += chunk) parser.push(bytes.subarray(i, i + chunk));
        const c = parser.counters;
        assert.equal(c.callbackErrors, 0);
        assert.equal(c.delivered + c.malformed + c.skipped, c.passed);
      }),
      { numRuns: 300 },
    );
  });

  it('commits nothing from truncated, spliced or corrupted lines: the fix equals that of the good lines alone', () => {
    fc.assert(
      fc.property(fc.array(mangledLine, { maxLength: 40 }), fc.integer({ min: 1, max: 50 }), (lines, chunk) => {
        const good = lines.filter(checksumPasses);
        assert.equal(fixState(lines, chunk), fixState(good, 1000));
      }),
      { numRuns: 400 },
    );
  });

  it('delivers exactly the lines whose checksum passes, whatever the chunking', () => {
    fc.assert(
      fc.property(fc.array(mangledLine, { maxLength: 30 }), fc.integer({ min: 1, max: 50 }), (lines, chunk) => {
        const mixed = ascii(lines.map((l) => l + '\r\n').join(''));
        const clean = ascii(
          lines
            .filter(checksumPasses)
            .map((l) => l + '\r\n')
            .join(''),
        );
        const a = parseInChunks(mixed, () => chunk);
        const b = parseInChunks(clean, () => clean.length);
        assert.deepEqual(a.sentences, b.sentences);
        assert.equal(a.counters.passed, b.counters.passed);
        assert.equal(a.counters.failed, lines.length - b.counters.passed);
      }),
      { numRuns: 300 },
    );
  });
  it("refuses a spliced line with a '*' inside even when the XOR up to its last '*' matches (found by fast-check)", () => {
    const spliced = [
      '$GPGSV,2,2,06,24,42,269,35,28,40,054,47*78,N,0.072,K,D*37',
      '$GPGGA,105418.408,5050.4125,N,00420.8238,E,1,06,1.50,104.0,M,,M,,0000*TG,,T,,M,0.022,N,0.040,K,D*3C',
    ];
    for (const line of spliced) {
      assert.equal(checksumPasses(line), false);
      const run = parseInChunks(ascii(line + '\r\n'), () => 7);
      assert.deepEqual(run.sentences, []);
      assert.equal(run.counters.passed, 0);
      assert.equal(run.counters.failed, 1);
    }
  });
});
