// bench:xs-gnss — the NMEA parser and fix tracker on Moddable's XS engine
// (xsnap), per sentence, for every shipped receiver log, against a peer run
// on the same engine in the same run: nmea-simple's parseUnsafeNmeaSentence,
// used as its authors intend (a string per line in, an object per sentence
// out; the lines are split before the measured pass, an advantage to it).
// Workload: bench/xs/gnss.ts. Runners: `parse` (our NmeaParser with the typed-sentence reader), `fix`
// (NmeaParser into FixTracker: a location channel's steady path), `peer`.
//
// Figures, per log and runner (xsnap's meters are deterministic: the same on
// every machine):
// - computrons per sentence: a pass repeated until at least 2,000 sentences,
//   minus the same call with zero passes (xsnap's own cost of an evaluation);
// - wall time per sentence on native xsnap on this host (the same passes,
//   timed from Node around each evaluation: noisy on a shared machine);
// - heap slots allocated per sentence: one pass right after a GC (XS counts
//   every new slot and resets the count at each GC), minus the same call with
//   zero passes after a GC.
// Not measured: chunk bytes (strings, array storage). xsnap's meter reports
// slots and reserved arena bytes only; the engine's chunk counter is not
// readable from a script, so this bench cannot count strings.
// Last line: one JSON object of the figures.
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleScript } from '../test/xs/run.mjs';
import { startXs } from '../test/xs/xsnap.mjs';

const root = resolve(fileURLToPath(new URL('..', import.meta.url)));
const logDir = join(root, 'test', 'fixtures', 'gnss-logs');
const MIN_SENTENCES = 2_000;
const RUNNERS = ['parse', 'fix', 'peer'];

/** nmea-simple (CommonJS) as one script for XS: its files as functions behind a small `require`. */
function nmeaSimpleScript() {
  const dist = join(root, 'node_modules', 'nmea-simple', 'dist');
  const files = [];
  const walk = (dir) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      if (e.isDirectory() && e.name !== 'tests') walk(join(dir, e.name));
      else if (e.name.endsWith('.js')) files.push(join(dir, e.name));
    }
  };
  walk(dist);
  const defs = files.map((f) => {
    const id = relative(dist, f).slice(0, -3).split('\\').join('/');
    return `${JSON.stringify(id)}: function (module, exports, require) {\n${readFileSync(f, 'utf8')}\n}`;
  });
  return `(function () {
  const defs = {${defs.join(',\n')}};
  const cache = {};
  function resolveId(from, request) {
    const parts = from.split('/').slice(0, -1);
    for (const p of request.split('/')) {
      if (p === '..') parts.pop();
      else if (p !== '.') parts.push(p);
    }
    return parts.join('/');
  }
  function load(id) {
    if (cache[id]) return cache[id].exports;
    if (!defs[id]) throw new Error('nmea-simple: no module ' + id);
    const module = { exports: {} };
    cache[id] = module;
    defs[id](module, module.exports, (request) => load(resolveId(id, request)));
    return module.exports;
  }
  globalThis.__nmeaSimple = load('index');
})();`;
}

// `node bench/xs-gnss.mjs [log ...]`: only the named logs (without .log); all by default.
const only = process.argv.slice(2);
const names = readdirSync(logDir)
  .filter((n) => n.endsWith('.log') && (only.length === 0 || only.includes(n.slice(0, -4))))
  .sort();
if (names.length === 0) throw new Error(`bench:xs-gnss: no log matches ${only.join(' ')}`);
const code = await bundleScript([join(root, 'bench', 'xs', 'gnss.ts')]);
const worker = await startXs({ name: 'bench-xs-gnss' });
const xs = async (source) => {
  const started = performance.now();
  const { meterUsage } = await worker.evaluate(source);
  return { ...meterUsage, ms: performance.now() - started };
};
const figures = {};
let stats;
try {
  await xs(nmeaSimpleScript());
  await xs(code);
  for (const name of names) {
    const text = readFileSync(join(logDir, name), 'latin1');
    const sentences = text.split('\n').filter((l) => l.startsWith('$') || l.startsWith('!')).length;
    await xs(`__gnss.load(${JSON.stringify(name)}, ${JSON.stringify(text)})`);
    const reps = Math.max(1, Math.ceil(MIN_SENTENCES / sentences));
    const row = { sentences };
    for (const runner of RUNNERS) {
      const call = (times) => `__gnss.pass(${JSON.stringify(name)}, '${runner}', ${times})`;
      await xs(call(1)); // warm-up: first-pass costs (lazy property tables, caches) are not per sentence
      const zero = await xs(call(0));
      const timed = await xs(call(reps));
      const before0 = (await xs('gc()')).currentHeapCount;
      const zeroSlots = (await xs(call(0))).currentHeapCount - before0;
      const before = (await xs('gc()')).currentHeapCount;
      const after = (await xs(call(1))).currentHeapCount;
      row[runner] = {
        computronsPerSentence: Math.round((timed.compute - zero.compute) / (reps * sentences)),
        usPerSentence: +((1000 * Math.max(0, timed.ms - zero.ms)) / (reps * sentences)).toFixed(2),
        slotsPerSentence: +((after - before - zeroSlots) / sentences).toFixed(2),
      };
    }
    row.peerOverParse = +(row.peer.computronsPerSentence / row.parse.computronsPerSentence).toFixed(2);
    figures[name.replace(/\.log$/, '')] = row;
  }
  const { reply } = await worker.evaluate(
    'const s = JSON.stringify(__gnss.stats()); const b = new TextEncoder().encode(s); b.buffer',
  );
  stats = JSON.parse(new TextDecoder().decode(reply));
} finally {
  await worker.close().catch(() => undefined);
}

// --- Report ------------------------------------------------------------------
const rows = Object.entries(figures);
const total = { sentences: 0 };
for (const runner of RUNNERS) {
  let computrons = 0;
  let slots = 0;
  let us = 0;
  for (const [, r] of rows) {
    computrons += r[runner].computronsPerSentence * r.sentences;
    slots += r[runner].slotsPerSentence * r.sentences;
    us += r[runner].usPerSentence * r.sentences;
  }
  total[runner] = { computrons, slots, us };
}
for (const [, r] of rows) total.sentences += r.sentences;
const per = (runner, k) => total[runner][k] / total.sentences;
const summary = (runner) => ({
  computronsPerSentence: +per(runner, 'computrons').toFixed(1),
  usPerSentence: +per(runner, 'us').toFixed(3),
  slotsPerSentence: +per(runner, 'slots').toFixed(3),
});
console.log('NMEA on XS (xsnap), per sentence: computrons / heap slots allocated; peer = nmea-simple on xsnap');
console.log('log'.padEnd(34) + 'lines   parse        fix          nmea-simple     peer/parse');
for (const [name, r] of rows) {
  const cell = (x) => `${String(x.computronsPerSentence).padStart(6)} / ${String(x.slotsPerSentence).padEnd(5)}`;
  console.log(
    `${name.padEnd(34)}${String(r.sentences).padStart(5)}   ${cell(r.parse)} ${cell(r.fix)} ${cell(r.peer)}   ${r.peerOverParse}x`,
  );
}
const ratio = per('peer', 'computrons') / per('parse', 'computrons');
console.log(
  `all ${total.sentences} lines: parse ${per('parse', 'computrons').toFixed(0)} computrons, ${per('parse', 'slots').toFixed(3)} slots; ` +
    `fix ${per('fix', 'computrons').toFixed(0)} computrons, ${per('fix', 'slots').toFixed(3)} slots; ` +
    `nmea-simple ${per('peer', 'computrons').toFixed(0)} computrons, ${per('peer', 'slots').toFixed(1)} slots`,
);
const timeRatio = per('peer', 'us') / per('parse', 'us');
console.log(
  `wall time on native xsnap: parse ${per('parse', 'us').toFixed(2)} us, fix ${per('fix', 'us').toFixed(2)} us, nmea-simple ${per('peer', 'us').toFixed(2)} us per sentence`,
);
console.log(
  `ratio: nmea-simple / ours (parse) = ${ratio.toFixed(2)}x computrons, ${timeRatio.toFixed(2)}x wall time per sentence on XS`,
);
console.log(`XS: ${JSON.stringify(stats)}`);
console.log(
  JSON.stringify({
    sentences: total.sentences,
    parse: summary('parse'),
    fix: summary('fix'),
    nmeaSimple: summary('peer'),
    ratioComputrons: +ratio.toFixed(2),
    ratioWallTime: +timeRatio.toFixed(2),
    chunkBytes: 'not measurable with xsnap meters',
    logs: figures,
  }),
);
