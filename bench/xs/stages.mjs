// The pipeline's cost per sample on XS, per stage, with the harness's share subtracted: the
// per-sample section of bench/xs.mjs (workload bench/xs/pipeline.ts).
//
// Each mode runs in its own xsnap worker: `harness` (the scan loop alone: inputs moved, clock
// advanced, microtasks settled; no agent: xsnap's and the bench's own share), `decide` (read, scale,
// decide; nothing reported) and `full`. The agent sends one batch a second, so a cycle is 10 scans:
// 9 quiet ones (window Q), then the one that sends (window T), found by aligning on the first send.
// - Slots and computrons: each window is one crank right after gc(), so its slot count is exactly what
//   it allocated (XS counts each new slot and resets the count to the live slots at a collection).
// - Chunk bytes: bench/xs/chunks.mjs (headroom bisection over deterministic replays), for Q, Q+T and
//   five cycles in `full`, one and five cycles in the other modes; its calibration runs first.
// Split per sample: sample+decide = decide - harness; encode+batch = full's quiet scans - decide;
// send = the sending scan's excess over a quiet scan, spread over the cycle's samples (one batch).
import { startXs } from '../../test/xs/xsnap.mjs';
import { calibrate, chunkBytes } from './chunks.mjs';

export const CYCLE_SCANS = 10;
const CYCLES = 5;
const LONG_SCANS = CYCLES * CYCLE_SCANS;
const MODES = ['harness', 'decide', 'full'];

/** Slots and computrons of Q and T windows over CYCLES cycles, in a fresh worker. */
async function meterWindows(code, channels, mode) {
  const w = await startXs({ name: `bench-xs-${mode}` });
  const meter = async (source) => (await w.evaluate(source)).meterUsage;
  const stats = async () => {
    const { reply } = await w.evaluate('const s = JSON.stringify(__bench.stats()); new TextEncoder().encode(s).buffer');
    return JSON.parse(new TextDecoder().decode(reply));
  };
  const window = async (scans) => {
    const before = await meter('gc()');
    const s0 = await stats();
    const after = await meter(`__bench.scans(${scans})`);
    const s1 = await stats();
    const slots = after.currentHeapCount - before.currentHeapCount;
    if (slots <= 0) throw new Error(`bench:xs ${mode}: a collection ran inside a window (${slots} slots)`);
    return { slots, compute: after.compute, writes: s1.writes - s0.writes, sent: s1.sent - s0.sent };
  };
  try {
    await meter(code);
    await meter(`__bench.setup(${channels}, false, '${mode}')`);
    await meter('__bench.scans(30).then(() => __bench.drain())');
    let alignScans = 0;
    if (mode === 'full') {
      let aligned = false;
      for (; alignScans < 2 * CYCLE_SCANS && !aligned; alignScans++) aligned = (await window(1)).writes === 1;
      if (!aligned) throw new Error('bench:xs full: no batch sent in 20 scans');
    }
    const sum = { q: { slots: 0, compute: 0 }, t: { slots: 0, compute: 0 }, sent: 0 };
    for (let c = 0; c < CYCLES; c++) {
      const q = await window(CYCLE_SCANS - 1);
      const t = await window(1);
      const want = mode === 'full' ? 1 : 0;
      if (q.writes !== 0 || t.writes !== want)
        throw new Error(`bench:xs ${mode}: cycle ${c} wrote ${q.writes} + ${t.writes} batches, expected 0 + ${want}`);
      for (const k of ['slots', 'compute']) {
        sum.q[k] += q[k];
        sum.t[k] += t[k];
      }
      sum.sent += q.sent + t.sent;
    }
    return { ...sum, alignScans };
  } finally {
    await w.close().catch(() => undefined);
  }
}

const round = (v) => +v.toFixed(2);

/** Runs every mode; returns per-sample figures for slots, computrons and chunk bytes. */
export async function measureStages(code, channels) {
  const runs = {};
  for (const mode of MODES) runs[mode] = await meterWindows(code, channels, mode);
  const samplesPerCycle = CYCLE_SCANS * channels;
  const figures = { cycles: CYCLES, cycleScans: CYCLE_SCANS, recordsPerBatch: runs.full.sent / CYCLES };
  for (const k of ['slots', 'compute']) {
    const perSample = (mode) => (runs[mode].q[k] + runs[mode].t[k]) / (CYCLES * samplesPerCycle);
    const quietScan = runs.full.q[k] / (CYCLES * (CYCLE_SCANS - 1));
    const decide = perSample('decide');
    figures[k] = {
      gross: round(perSample('full')),
      harness: round(perSample('harness')),
      net: round(perSample('full') - perSample('harness')),
      sampleDecide: round(decide - perSample('harness')),
      encode: round(quietScan / channels - decide),
      send: round((runs.full.t[k] / CYCLES - quietScan) / samplesPerCycle),
    };
  }

  const calibration = await calibrate();
  const bad = calibration.filter((c) => c.measured !== c.expected);
  if (bad.length > 0) throw new Error(`bench:xs chunks: calibration off: ${JSON.stringify(bad)}`);
  const chunks = {};
  for (const mode of MODES) {
    const prefix = [
      code,
      `__bench.setup(${channels}, false, '${mode}')`,
      '__bench.scans(30).then(() => __bench.drain())',
    ];
    if (mode === 'full') prefix.push(`__bench.scans(${runs.full.alignScans})`);
    const windows = mode === 'full' ? [CYCLE_SCANS - 1, CYCLE_SCANS, LONG_SCANS] : [CYCLE_SCANS, LONG_SCANS];
    chunks[mode] = (await chunkBytes(prefix, windows, 4 * 1024 * 1024)).windows;
  }
  const c = (mode, scans) => chunks[mode][scans].chunkBytes;
  const quietScan = c('full', CYCLE_SCANS - 1) / (CYCLE_SCANS - 1);
  const decide = (c('decide', CYCLE_SCANS) - c('harness', CYCLE_SCANS)) / samplesPerCycle;
  figures.chunkBytes = {
    gross: round(c('full', LONG_SCANS) / (LONG_SCANS * channels)),
    harness: round(c('harness', LONG_SCANS) / (LONG_SCANS * channels)),
    net: round((c('full', LONG_SCANS) - c('harness', LONG_SCANS)) / (LONG_SCANS * channels)),
    sampleDecide: round(decide),
    encode: round(quietScan / channels - c('decide', CYCLE_SCANS) / samplesPerCycle),
    send: round((c('full', CYCLE_SCANS) - c('full', CYCLE_SCANS - 1) - quietScan) / samplesPerCycle),
    windows: chunks,
    calibration,
  };
  return figures;
}

/** Prints the section (slot bytes: 16 on the ESP32, `hostSlotBytes` here). */
export function printStages(f, esp32SlotBytes, hostSlotBytes) {
  const line = (name, v, extra) =>
    console.log(
      `XS  :   ${name} ${v.net}${extra} (gross ${v.gross}, harness ${v.harness}) = sample+decide ${v.sampleDecide}` +
        ` + encode+batch ${v.encode} + send ${v.send}`,
    );
  console.log(
    `XS  : per sample, ${f.cycles} cycles of ${f.cycleScans} scans (${f.recordsPerBatch} records per batch), ` +
      `the harness's share (xsnap + the scan loop, no agent) subtracted:`,
  );
  const sl = f.slots;
  line(
    'slots allocated',
    sl,
    ` [${(sl.net * esp32SlotBytes).toFixed(0)} B on ESP32, ${(sl.net * hostSlotBytes).toFixed(0)} B here]`,
  );
  line('computrons', f.compute, '');
  line('chunk bytes allocated', f.chunkBytes, ' [64-bit host: 16 B per chunk header, 8 B on ESP32]');
  const cal = f.chunkBytes.calibration.map((c) => `${c.count} x ${c.bytes} B: ${c.measured}/${c.expected}`);
  console.log(`XS  :   chunk meter calibration (measured/expected B): ${cal.join(', ')}`);
}
