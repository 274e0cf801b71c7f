// bench:xs — the agent core's cost and memory on Moddable's XS engine, measured
// with xsnap's deterministic meters, against the same pipeline on Node in the
// same run. Workload: bench/xs/pipeline.ts (16 analog channels, every sample
// reported through scaling, transmit events, batching, the outbox and a 200 OK
// transport).
//
// What the meters count (xsnap 0.15's XS sources: xsnap-worker.c fxWriteOkay,
// xsMemory.c). After each crank (one evaluate) xsnap reports `compute` (the
// crank's computrons: one per bytecode XS ran (mxMeterOne), plus what array,
// string, regexp and buffer builtins add for their own loops (mxMeterSome):
// deterministic, the same on every machine),
// `currentHeapCount` and `allocate`.
// - A slot (txSlot) is XS's one fixed-size cell: a value, a property, an
//   instance header, a closure variable, a promise's bookkeeping. 32 B on a
//   64-bit host (pointer 8 + id/flag/kind 8 + value 16), 16 B on the ESP32
//   (4 + 4 + 8). currentHeapCount counts slots in use: +1 at each new slot,
//   reset to the live slots by every collection; so a crank that starts right
//   after gc() and ends before the next collection shows exactly the slots it
//   allocated.
// - A chunk is a variable-size block in XS's chunk heap: string contents made
//   at run time, ArrayBuffer data, array element storage (one slot per
//   element), Map/Set tables, bigints, bytecode; 16 B of header here, 8 B on
//   the ESP32. Chunks are bump-allocated and reclaimed by a compacting
//   collection. xsnap has no chunk meter (`allocate` is the bytes reserved
//   from the system, which moves only when a block is added), so
//   bench/xs/chunks.mjs reads the chunk heap's free room from outside, by
//   bisection over deterministic replays, calibrated on known allocations.
//
// Figures:
// - computrons per sample on XS, and wall time per sample on XS (native xsnap
//   here) and on Node;
// - per sample, per stage, with a baseline subtracted (bench/xs/stages.mjs):
//   slots allocated, computrons and chunk bytes allocated, for the whole
//   pipeline, sampling+deciding, encoding+batching and sending; the baseline is
//   the same harness (same scan loop, same clock advance, same settling) with
//   no agent, in its own worker;
// - live heap after 1,000 samples and after 100,000 samples, after a full GC,
//   on XS (slots and bytes) and on Node (heapUsed): growth must be ~0.
// - heap per channel, steady inputs (transmit on change, nothing reported), for
//   8, 32 and 128 channels, each in a fresh worker with a 0-channel worker's
//   figures (xsnap's and the bench's own baseline) subtracted: live slots per
//   channel after a GC, live bytes per channel (the size of an xsnap snapshot:
//   slots and chunks), and slots allocated per steady scan tick (garbage: the
//   0-channel worker's own, the harness's async loop, printed beside it). The
//   scan tick re-arms the scheduler's one reusable timer (`Clock.timer`;
//   FakeClock re-arms it in place, as a board's `Timer.schedule` does: the
//   board adapter's arming is metered at 0 slots by test:firmware).
//   The peer is the same bundle on Node (heapUsed per channel, fresh vm context).
// - flash (bench/xs/flash-compare.mjs): store bytes written per record
//   delivered, writes, deletes, keys and writes per hour, online and during 10
//   and 40 min outages, ring outbox and bench:field's write-through peer, on XS
//   beside Node with the ratio; they must agree (the bench exits 1 if not).
// Last line: one JSON object of the figures.
import { createContext, runInThisContext, runInNewContext } from 'node:vm';
import { setFlagsFromString } from 'node:v8';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleScript } from '../test/xs/run.mjs';
import { startXs } from '../test/xs/xsnap.mjs';
import { bundleFlash, compareFlash, printFlash } from './xs/flash-compare.mjs';
import { measureStages, printStages } from './xs/stages.mjs';

const root = resolve(fileURLToPath(new URL('..', import.meta.url)));
const CHANNELS = 16;
const SMALL_SCANS = 1_000 / CHANNELS; // 1,000 samples (62.5 -> 63 scans)
const LARGE_SCANS = 100_000 / CHANNELS; // 100,000 samples
const COMPUTE_SCANS = 1_000; // 16,000 samples
/** sizeof(txSlot): 32 bytes on a 64-bit host, 16 on the ESP32 (32-bit). */
const SLOT_BYTES_HOST = 32;
const SLOT_BYTES_ESP32 = 16;
const code = await bundleScript([join(root, 'bench', 'xs', 'pipeline.ts')]);
const flashCode = await bundleFlash(root);

// --- XS -------------------------------------------------------------------
const worker = await startXs({ name: 'bench-xs' });
const xs = async (source) => {
  const started = performance.now();
  const { meterUsage } = await worker.evaluate(source);
  return { ...meterUsage, ms: performance.now() - started };
};
const xsStats = async () => {
  const { reply } = await worker.evaluate(
    'const s = JSON.stringify(__bench.stats()); const b = new TextEncoder().encode(s); b.buffer',
  );
  return JSON.parse(new TextDecoder().decode(reply));
};
let xsFigures;
try {
  await xs(code);
  await xs('__bench.setup()');
  await xs(`__bench.scans(${Math.ceil(SMALL_SCANS)}).then(() => __bench.drain())`);
  const afterSmall = await xs('gc()');
  const timed = await xs(`__bench.scans(${COMPUTE_SCANS})`);
  const done = Math.ceil(SMALL_SCANS) + COMPUTE_SCANS;
  await xs(`__bench.scans(${LARGE_SCANS - done}).then(() => __bench.drain())`);
  const afterLarge = await xs('gc()');
  const stats = await xsStats();
  xsFigures = {
    computronsPerSample: Math.round(timed.compute / (COMPUTE_SCANS * CHANNELS)),
    usPerSample: +((1000 * timed.ms) / (COMPUTE_SCANS * CHANNELS)).toFixed(2),
    liveSlotsAfter1k: afterSmall.currentHeapCount,
    liveSlotsAfter100k: afterLarge.currentHeapCount,
    liveSlotGrowth: afterLarge.currentHeapCount - afterSmall.currentHeapCount,
    liveHeapBytesAfter1kEsp32: afterSmall.currentHeapCount * SLOT_BYTES_ESP32,
    liveHeapBytesAfter100kEsp32: afterLarge.currentHeapCount * SLOT_BYTES_ESP32,
    reservedBytesAfter1k: afterSmall.allocate,
    reservedBytesAfter100k: afterLarge.allocate,
    stats,
  };
} finally {
  await worker.close().catch(() => undefined);
}

// --- Per sample, per stage, the harness's share subtracted (bench/xs/stages.mjs) -
const stages = await measureStages(code, CHANNELS);

// --- Heap per channel, steady inputs ----------------------------------------
const HEAP_CHANNELS = [0, 8, 32, 128];
const STEADY_WINDOWS = 10;

async function snapshotBytes(w) {
  let bytes = 0;
  for await (const chunk of w.makeSnapshotStream('heap-per-channel')) bytes += chunk.byteLength;
  return bytes;
}

async function xsHeap(channels) {
  const w = await startXs({ name: `bench-xs-heap-${channels}` });
  try {
    await w.evaluate(code);
    await w.evaluate(`__bench.setup(${channels}, true)`);
    await w.evaluate('__bench.scans(20).then(() => __bench.drain())');
    const live = (await w.evaluate('gc()')).meterUsage;
    const snapshot = await snapshotBytes(w);
    let allocated = 0;
    for (let i = 0; i < STEADY_WINDOWS; i++) {
      const before = (await w.evaluate('gc()')).meterUsage.currentHeapCount;
      const after = (await w.evaluate('__bench.scans(1)')).meterUsage.currentHeapCount;
      allocated += after - before;
    }
    return { slots: live.currentHeapCount, snapshot, slotsPerScan: allocated / STEADY_WINDOWS };
  } finally {
    await w.close().catch(() => undefined);
  }
}

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc');

async function nodeHeap(channels) {
  gc();
  const before = process.memoryUsage().heapUsed;
  const context = createContext({});
  runInNewContext(code, context);
  await context.__bench.setup(channels, true);
  await context.__bench.scans(20);
  await context.__bench.drain();
  gc();
  const bytes = process.memoryUsage().heapUsed - before;
  return { bytes, keep: context };
}

const heap = {};
const steadyScans = {};
{
  const base = await xsHeap(0);
  const nodeBase = await nodeHeap(0);
  for (const n of HEAP_CHANNELS.slice(1)) {
    const x = await xsHeap(n);
    const node = await nodeHeap(n);
    const slotsPerChannel = (x.slots - base.slots) / n;
    const bytesPerChannel = (x.snapshot - base.snapshot) / n;
    heap[n] = {
      liveSlotsPerChannel: +slotsPerChannel.toFixed(1),
      liveBytesPerChannelSnapshot: Math.round(bytesPerChannel),
      chunkBytesPerChannel: Math.round(bytesPerChannel - slotsPerChannel * SLOT_BYTES_HOST),
      liveBytesPerChannelEsp32: Math.round(
        slotsPerChannel * SLOT_BYTES_ESP32 + (bytesPerChannel - slotsPerChannel * SLOT_BYTES_HOST),
      ),
      garbageSlotsPerSteadyScan: +(x.slotsPerScan - base.slotsPerScan).toFixed(1),
      harnessSlotsPerScan: +base.slotsPerScan.toFixed(1),
      nodeHeapBytesPerChannel: Math.round((node.bytes - nodeBase.bytes) / n),
    };
    steadyScans[n] = x.slotsPerScan;
  }
}
// Garbage per steady sample: the slope over the channel count; what a scan tick costs whatever the count is apart.
const heapNs = HEAP_CHANNELS.slice(1);
const [fewest, most] = [heapNs[0], heapNs[heapNs.length - 1]];
const garbageSlotsPerSteadySample = +((steadyScans[most] - steadyScans[fewest]) / (most - fewest)).toFixed(3);

// --- Node: the same bundle, the same steps ---------------------------------
runInThisContext(code);
const bench = globalThis.__bench;
await bench.setup();
await bench.scans(Math.ceil(SMALL_SCANS));
await bench.drain();
gc();
const nodeAfterSmall = process.memoryUsage().heapUsed;
await bench.scans(COMPUTE_SCANS); // warm-up for the JIT
const started = performance.now();
await bench.scans(COMPUTE_SCANS);
const nodeMs = performance.now() - started;
await bench.scans(LARGE_SCANS - Math.ceil(SMALL_SCANS) - 2 * COMPUTE_SCANS);
await bench.drain();
gc();
const nodeAfterLarge = process.memoryUsage().heapUsed;
const nodeFigures = {
  usPerSample: +((1000 * nodeMs) / (COMPUTE_SCANS * CHANNELS)).toFixed(2),
  heapUsedAfter1k: nodeAfterSmall,
  heapUsedAfter100k: nodeAfterLarge,
  heapGrowthBytes: nodeAfterLarge - nodeAfterSmall,
  stats: bench.stats(),
};

// --- Flash: store writes per record delivered, XS beside Node (bench/xs/flash-compare.mjs) -
const flash = await compareFlash(root, flashCode);

// --- Report ------------------------------------------------------------------
const x = xsFigures;
console.log(`core pipeline, ${CHANNELS} analog channels, every sample reported (bench/xs/pipeline.ts)`);
console.log(`XS  : ${x.computronsPerSample} computrons/sample, ${x.usPerSample} us/sample (native xsnap on this host)`);
printStages(stages, SLOT_BYTES_ESP32, SLOT_BYTES_HOST);
console.log(
  `XS  : live heap after 1,000 samples ${x.liveSlotsAfter1k} slots, after 100,000 ${x.liveSlotsAfter100k} slots: growth ${x.liveSlotGrowth} slots (${x.liveSlotGrowth * SLOT_BYTES_ESP32} B on ESP32)`,
);
console.log(`XS  : ${JSON.stringify(x.stats)}`);
console.log(
  `Node: ${nodeFigures.usPerSample} us/sample; heapUsed after 1,000 ${nodeAfterSmall} B, after 100,000 ${nodeAfterLarge} B: growth ${nodeFigures.heapGrowthBytes} B`,
);
console.log(`Node: ${JSON.stringify(nodeFigures.stats)}`);
console.log(`ratio: XS / Node time per sample = ${(x.usPerSample / nodeFigures.usPerSample).toFixed(1)}x`);
console.log('heap per channel, steady inputs, 0-channel baseline subtracted (slots 16 B on ESP32, 32 B here):');
for (const [n, h] of Object.entries(heap)) {
  console.log(
    `XS  : ${n} channels: ${h.liveSlotsPerChannel} live slots/channel, ${h.liveBytesPerChannelSnapshot} B/channel ` +
      `(snapshot; chunks ${h.chunkBytesPerChannel} B), ~${h.liveBytesPerChannelEsp32} B/channel on ESP32; ` +
      `${h.garbageSlotsPerSteadyScan} slots of garbage per steady scan tick (harness alone ${h.harnessSlotsPerScan}); ` +
      `Node ${h.nodeHeapBytesPerChannel} B/channel (ratio XS ESP32 / Node ${(h.liveBytesPerChannelEsp32 / h.nodeHeapBytesPerChannel).toFixed(2)})`,
  );
}
console.log(
  `XS  : garbage per steady sample (slope ${fewest} to ${most} channels): ${garbageSlotsPerSteadySample} slots`,
);
printFlash(flash);
console.log(
  JSON.stringify({
    garbageSlotsPerSteadySample,
    channels: CHANNELS,
    xs: { ...x, stats: undefined },
    perSample: stages,
    node: { ...nodeFigures, stats: undefined },
    heapPerChannel: heap,
    flash: { runs: flash.runs, agree: flash.agree, computrons: flash.computrons },
  }),
);
