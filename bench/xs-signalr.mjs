// bench:xs-signalr — decoding hub Notify messages on Moddable's XS engine
// (xsnap): our RecordDecoder + parseHubMessage against the official
// `@microsoft/signalr` JsonHubProtocol (bundled unchanged from its ESM build)
// run on the same engine in the same run, and the split + JSON.parse floor.
// Messages: the Notify messages of a session recorded first, on loopback, by
// bench/signalr/latency.ts (the same transcript bench:signalr uses).
// Figures per Notify message: computrons (deterministic) and heap slots
// allocated, each minus the same call with zero passes; wall time on native
// xsnap (noisy on a shared machine). Chunk bytes (strings) are not counted:
// xsnap's meter does not report them. Last line: one JSON object.
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { rollup } from 'rollup';
import { nodeResolve } from '@rollup/plugin-node-resolve';
import { typescriptTranspile } from '../test/xs/ts-plugin.mjs';
import { startXs } from '../test/xs/xsnap.mjs';

const root = resolve(fileURLToPath(new URL('..', import.meta.url)));
const { measureLatency } = await import(join(root, 'build', 'bench', 'signalr', 'latency.js'));
const latency = await measureLatency(40);
const notifies = latency.transcript.filter((m) => m.includes('"Notify"'));
if (notifies.length === 0) throw new Error('the recorded session has no Notify');

const bundle = await rollup({
  input: join(root, 'bench', 'xs', 'signalr.ts'),
  onwarn(warning, warn) {
    if (warning.code !== 'CIRCULAR_DEPENDENCY' && warning.code !== 'THIS_IS_UNDEFINED') warn(warning);
  },
  plugins: [typescriptTranspile(), nodeResolve({ extensions: ['.js'], mainFields: ['module', 'main'] })],
});
const code = (await bundle.generate({ format: 'iife', sourcemap: false })).output[0].code;
await bundle.close();

const RUNNERS = ['ours', 'peer', 'floor'];
const REPS = 100;
const worker = await startXs({ name: 'bench-xs-signalr' });
const xs = async (source) => {
  const started = performance.now();
  const { meterUsage } = await worker.evaluate(source);
  return { ...meterUsage, ms: performance.now() - started };
};
const figures = {};
try {
  await xs(code);
  await xs(`__hub.load(${JSON.stringify(notifies)})`);
  const count = async () => {
    const { reply } = await worker.evaluate('new TextEncoder().encode(String(__hub.records())).buffer');
    return Number(new TextDecoder().decode(reply));
  };
  for (const runner of RUNNERS) {
    const call = (times) => `__hub.pass('${runner}', ${times})`;
    const counted = await count();
    await xs(call(1)); // also the warm-up
    const decoded = (await count()) - counted;
    if (decoded !== notifies.length)
      throw new Error(`${runner} decoded ${decoded} of ${notifies.length} Notify messages`);
    const zero = await xs(call(0));
    const timed = await xs(call(REPS));
    const before0 = (await xs('gc()')).currentHeapCount;
    const zeroSlots = (await xs(call(0))).currentHeapCount - before0;
    const before = (await xs('gc()')).currentHeapCount;
    const after = (await xs(call(1))).currentHeapCount;
    const n = REPS * notifies.length;
    figures[runner] = {
      computronsPerNotify: Math.round((timed.compute - zero.compute) / n),
      usPerNotify: +((1000 * Math.max(0, timed.ms - zero.ms)) / n).toFixed(2),
      slotsPerNotify: +((after - before - zeroSlots) / notifies.length).toFixed(1),
    };
  }
} finally {
  await worker.close().catch(() => undefined);
}
const o = figures.ours;
const p = figures.peer;
const f = figures.floor;
console.log(
  `Notify decoding on XS (xsnap), ${notifies.length} recorded Notify messages, e.g. ${notifies[0].slice(0, 90)}...`,
);
for (const r of RUNNERS) {
  const x = figures[r];
  const name = { ours: 'ours', peer: 'JsonHubProtocol', floor: 'split + JSON.parse' }[r];
  console.log(
    `${name.padEnd(20)} ${x.computronsPerNotify} computrons, ${x.slotsPerNotify} slots, ${x.usPerNotify} us per Notify`,
  );
}
const ratio = p.computronsPerNotify / o.computronsPerNotify;
console.log(
  `ratio: JsonHubProtocol / ours = ${ratio.toFixed(2)}x computrons, ${(p.slotsPerNotify / o.slotsPerNotify).toFixed(2)}x slots, ` +
    `${(p.usPerNotify / o.usPerNotify).toFixed(2)}x wall time per Notify`,
);
console.log(
  JSON.stringify({
    notifies: notifies.length,
    ours: o,
    jsonHubProtocol: p,
    floor: f,
    ratioComputrons: +ratio.toFixed(2),
  }),
);
