/**
 * `npm run bench:gnss`: NMEA sentences parsed per second by our push parser and
 * by `nmea-simple`, on the same real receiver logs, in one run; and the bytes of
 * heap each allocates per sentence.
 *
 * Throughput: ours is pushed the raw bytes of all logs (framing, checksum and
 * field decoding included); nmea-simple is given the lines already split into
 * strings (an advantage to it) and parses each with parseUnsafeNmeaSentence.
 * Both see the same lines; rate = lines / elapsed time, best of 15 interleaved rounds.
 *
 * Allocation: after warm-up, a forced GC, then one pass over all lines with no
 * retained results; heapUsed after minus heapUsed before, divided by the lines,
 * is what the pass allocated per sentence. A pass during which any GC ran
 * (seen by a PerformanceObserver) is discarded and repeated. `gc` comes from
 * --expose-gc, or is enabled at run time through v8.setFlagsFromString.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { PerformanceObserver, performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { parseUnsafeNmeaSentence } from 'nmea-simple';
import { GSV } from '../src/gnss/gsv.js';
import { sentenceReader } from '../src/gnss/nmea-decode.js';
import { CountingNmeaParser } from '../src/gnss/nmea-parser.js';

const dir = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'test', 'fixtures', 'gnss-logs');
const lines = readdirSync(dir)
  .filter((n) => n.endsWith('.log'))
  .flatMap((n) => readFileSync(join(dir, n), 'latin1').split('\n'))
  .map((l) => l.replace(/\r$/, ''))
  .filter((l) => l.startsWith('$'));
const bytes = Buffer.from(lines.join('\r\n') + '\r\n', 'latin1');

let sink = 0;
// Typed sentences of every type nmea-simple decodes that we can (GSV included): the same work.
const ours = new CountingNmeaParser({
  onLine: sentenceReader(
    (s) => {
      sink += s.type.length;
    },
    [GSV],
  ),
});
const runOurs = (): void => ours.push(bytes);
const runTheirs = (): void => {
  for (const l of lines) {
    try {
      sink += parseUnsafeNmeaSentence(l).sentenceId.length;
    } catch {
      sink--;
    }
  }
};

/**
 * Sentences per second of each runner, best of interleaved timed rounds (the
 * two alternate, so load on a shared machine hits both alike).
 */
function rates(runners: readonly (() => void)[], rounds = 15, reps = 10): number[] {
  for (const run of runners) for (let i = 0; i < 5; i++) run(); // warm up
  const best = runners.map(() => Infinity);
  for (let round = 0; round < rounds; round++) {
    runners.forEach((run, k) => {
      const t0 = performance.now();
      for (let i = 0; i < reps; i++) run();
      best[k] = Math.min(best[k] as number, (performance.now() - t0) / reps);
    });
  }
  return best.map((ms) => lines.length / (ms / 1000));
}

function getGc(): () => void {
  const g = (globalThis as { gc?: () => void }).gc;
  if (g !== undefined) return g;
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

let gcRuns = 0;
new PerformanceObserver((list) => {
  gcRuns += list.getEntries().length;
}).observe({ entryTypes: ['gc'] });

async function bytesPerSentence(run: () => void, count: number): Promise<number> {
  const gc = getGc();
  for (let i = 0; i < 5; i++) run();
  let best = Infinity;
  for (let attempt = 0; attempt < 8 && best === Infinity; attempt++) {
    gc();
    await new Promise((r) => setTimeout(r, 50)); // let the observer report that GC first
    const before = gcRuns;
    const h0 = process.memoryUsage().heapUsed;
    run();
    const h1 = process.memoryUsage().heapUsed;
    await new Promise((r) => setTimeout(r, 50));
    if (gcRuns === before) best = Math.max(0, h1 - h0) / count;
  }
  return best;
}

const [oursRate = NaN, theirsRate = NaN] = rates([runOurs, runTheirs]);
// Allocation is measured on one pass over a slice of the corpus small enough that no GC need run.
const slice = lines.slice(0, 1000);
const sliceBytes = Buffer.from(slice.join('\r\n') + '\r\n', 'latin1');
const oursBytes = await bytesPerSentence(() => ours.push(sliceBytes), slice.length);
const theirsBytes = await bytesPerSentence(() => {
  for (const l of slice) {
    try {
      sink += parseUnsafeNmeaSentence(l).sentenceId.length;
    } catch {
      sink--;
    }
  }
}, slice.length);
const ratio = oursRate / theirsRate;

console.log(`corpus: ${lines.length} sentences from the real receiver logs (${bytes.length} bytes)`);
console.log(
  `ours:        ${Math.round(oursRate).toLocaleString('en')} sentences/s, ${oursBytes.toFixed(1)} B/sentence allocated`,
);
console.log(
  `nmea-simple: ${Math.round(theirsRate).toLocaleString('en')} sentences/s, ${theirsBytes.toFixed(1)} B/sentence allocated`,
);
console.log(`ratio: ours ${ratio.toFixed(2)}x nmea-simple (aim >= 3x)   [checksum ${sink % 10}]`);
console.log(
  JSON.stringify({
    sentences: lines.length,
    oursSentencesPerSec: Math.round(oursRate),
    nmeaSimpleSentencesPerSec: Math.round(theirsRate),
    ratio: Math.round(ratio * 100) / 100,
    oursBytesPerSentence: Math.round(oursBytes * 10) / 10,
    nmeaSimpleBytesPerSentence: Math.round(theirsBytes * 10) / 10,
    oursCounters: ours.counters,
  }),
);
