/**
 * The workload of bench/xs-gnss.mjs: one receiver log at a time, parsed on the
 * engine it runs on (xsnap, or Node for the same bundle) by
 * - `parse`: our NmeaParser with the typed-sentence reader of the host tools
 *   (framing, checksum, every field of the six types, GSV included),
 * - `fix`: NmeaParser into a FixTracker (the whole steady path of a location channel:
 *   the firmware's code, which reads only the fields a fix uses),
 * - `peer`: nmea-simple's parseUnsafeNmeaSentence on each line, as its authors
 *   intend it to be used (one string per line in, one object per sentence out);
 *   the lines are split beforehand, outside the measured pass (an advantage to it).
 *
 * It installs `globalThis.__gnss`. nmea-simple is CommonJS: the driver loads it
 * first as `globalThis.__nmeaSimple`; this file only reads it from there.
 */
import { FixTracker } from '../../src/gnss/fix-tracker.js';
import { GSV } from '../../src/gnss/gsv.js';
import { sentenceReader } from '../../src/gnss/nmea-decode.js';
import { CountingNmeaParser, NmeaParser } from '../../src/gnss/nmea-parser.js';
import { FakeClock } from '../../test/fakes/fake-clock.js';

interface Peer {
  parseUnsafeNmeaSentence(line: string): { sentenceId: string };
}

interface Log {
  bytes: Uint8Array;
  lines: string[];
}

const logs = new Map<string, Log>();
let sink = 0;
const parseOnly = new CountingNmeaParser({
  // All six types decoded into typed sentences. No method call on a string: that alone allocates on XS.
  onLine: sentenceReader(
    (s) => {
      sink += s.talker === 'other' ? 2 : 1;
    },
    [GSV],
  ),
});
const tracker = new FixTracker({ clock: new FakeClock() });
const parseFix = new NmeaParser({ onLine: (f) => tracker.onLine(f) });

function peer(): Peer {
  const p = (globalThis as { __nmeaSimple?: Peer }).__nmeaSimple;
  if (p === undefined) throw new Error('nmea-simple is not loaded');
  return p;
}

function log(name: string): Log {
  const l = logs.get(name);
  if (l === undefined) throw new Error(`log not loaded: ${name}`);
  return l;
}

export const gnss = {
  /** Keeps a log's sentences (lines starting with '$' or '!'), as bytes for ours and as lines for the peer. */
  load(name: string, text: string): number {
    const lines = text
      .split('\n')
      .map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l))
      .filter((l) => l.startsWith('$') || l.startsWith('!'));
    const joined = lines.join('\r\n') + '\r\n';
    const bytes = new Uint8Array(joined.length);
    for (let i = 0; i < joined.length; i++) bytes[i] = joined.charCodeAt(i) & 0xff;
    logs.set(name, { bytes, lines });
    return lines.length;
  },
  /** One pass of `runner` over the log `name`, `times` times. */
  pass(name: string, runner: 'parse' | 'fix' | 'peer', times = 1): void {
    const l = log(name);
    for (let t = 0; t < times; t++) {
      if (runner === 'parse') parseOnly.push(l.bytes);
      else if (runner === 'fix') parseFix.push(l.bytes);
      else {
        const p = peer();
        const lines = l.lines;
        for (let i = 0; i < lines.length; i++) {
          try {
            if (p.parseUnsafeNmeaSentence(lines[i] as string).sentenceId !== '') sink++;
          } catch {
            sink--;
          }
        }
      }
    }
  },
  /** What the passes did, so a run that parsed nothing shows. */
  stats(): Record<string, number> {
    const c = parseOnly.counters;
    return { passed: c.passed, failed: c.failed, delivered: c.delivered, sink };
  },
};

(globalThis as { __gnss?: typeof gnss }).__gnss = gnss;
