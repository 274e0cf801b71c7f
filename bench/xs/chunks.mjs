// Chunk bytes allocated on XS by a window of bench/xs/pipeline.ts's scans, for bench/xs.mjs.
//
// XS keeps strings made at run time, ArrayBuffer data, array element storage, Map/Set tables and
// bytecode in chunks, bump-allocated at the end of a chunk heap (one 32 MiB block in xsnap) and
// reclaimed only by a compacting collection, which XS starts by itself when a chunk no longer fits
// (xsMemory.c: fxFindChunk). xsnap reports no chunk meter, and JavaScript cannot see those
// collections (in xsnap's snapshot build they hold WeakRef targets strongly). So we read the free room
// at the end of the chunk heap (the headroom) from outside: a probe crank allocates one ArrayBuffer
// of n bytes (a chunk of n + 16 B, 8-byte aligned) and xsnap's slot meter tells whether a collection
// ran (the count drops: the probe's own 100 garbage objects and the window's garbage are gone). A
// collection destroys what we measure, so each probe runs in a fresh worker that replays the same
// deterministic steps (bundle, setup, warm-up, gc(), the window); a bisection on n finds the headroom
// to 8 B. The window's chunk bytes = headroom after an empty window - headroom after the window.
// Limits: a window must allocate well under the free room (about 31 MiB after the bench's setup; a
// 50-scan window allocates about 1 MiB), or a collection inside it would hide its garbage; the figures
// are for a 64-bit host (16 B chunk headers, 32 B per array element). About 20 replays per window.
import { startXs } from '../../test/xs/xsnap.mjs';

const PROBE =
  'globalThis.__probe = (s) => { for (let i = 0; i < 100; i++) globalThis.__g = {};' +
  ' globalThis.__g = new ArrayBuffer(parseInt(s, 10)); };';
/** The probe source has one length whatever n is, so its own compilation allocates the same chunks. */
const probeSource = (n) => `__probe("${String(n).padStart(10, '0')}")`;

/**
 * One replay: a fresh worker runs `prefix` (sources, one crank each), gc(), `window` (one crank), then
 * probes `n` bytes. Returns the window's slots and whether the probe fitted without a collection.
 */
async function replay(prefix, window, n) {
  const w = await startXs({ name: 'bench-xs-chunks' });
  const meter = async (source) => (await w.evaluate(source)).meterUsage;
  try {
    await meter(PROBE);
    for (const source of prefix) await meter(source);
    const collected = await meter('gc()');
    const worked = await meter(window);
    const probed = await meter(probeSource(n));
    return {
      windowSlots: worked.currentHeapCount - collected.currentHeapCount,
      fits: probed.currentHeapCount - worked.currentHeapCount >= 100,
    };
  } finally {
    await w.close().catch(() => undefined);
  }
}

/** The largest n (a multiple of 8, below `high`) whose probe fits after `window`; and the window's slots. */
async function headroom(prefix, window, low, high) {
  let slots;
  const check = async (n) => {
    const r = await replay(prefix, window, n);
    if (slots !== undefined && r.windowSlots !== slots)
      throw new Error(`bench:xs chunks: replays differ (${r.windowSlots} vs ${slots} slots): not deterministic`);
    if (r.windowSlots <= 0) throw new Error(`bench:xs chunks: a collection ran inside the window`);
    slots = r.windowSlots;
    return r.fits;
  };
  if (!(await check(low))) throw new Error(`bench:xs chunks: ${low} B do not fit after ${window}`);
  if (await check(high)) throw new Error(`bench:xs chunks: ${high} B fit after ${window}: raise the bound`);
  while (high - low > 8) {
    const mid = low + Math.floor((high - low) / 16) * 8;
    if (await check(mid)) low = mid;
    else high = mid;
  }
  return { bytes: low, slots };
}

/**
 * The check that the method measures chunk bytes: in a bare worker, windows that allocate ArrayBuffers
 * of known sizes (n + 16 B each, 8-byte aligned, on a 64-bit host). Returns expected and measured bytes.
 */
export async function calibrate() {
  const source = (count, bytes) =>
    `for (let i = 0; i < ${count}; i++) globalThis.__k = new ArrayBuffer(${bytes});`.padEnd(72, ' ');
  const reference = await headroom([], source(0, 0), 0, 64 * 1024 * 1024);
  const cases = [
    [100, 1000],
    [1000, 40],
  ];
  const out = [];
  for (const [count, bytes] of cases) {
    const h = await headroom([], source(count, bytes), reference.bytes - 256 * 1024, reference.bytes + 8);
    out.push({ count, bytes, expected: count * (Math.ceil(bytes / 8) * 8 + 16), measured: reference.bytes - h.bytes });
  }
  return out;
}

/**
 * Chunk bytes (and slots) allocated by each of `windows` (scan counts), after `prefix`; one bisection
 * for an empty window (the reference) and one per window, searched within `spanBytes` below it.
 */
export async function chunkBytes(prefix, windows, spanBytes = 2 * 1024 * 1024) {
  // Every window's source has one length, so that its compilation allocates the same chunks.
  const scansSource = (scans) => `__bench.scans(${scans})`.padEnd(24, ' ');
  const reference = await headroom(prefix, scansSource(0), 0, 64 * 1024 * 1024);
  const out = {};
  for (const scans of windows) {
    const source = scansSource(scans);
    const h = await headroom(prefix, source, Math.max(0, reference.bytes - spanBytes), reference.bytes + 8);
    out[scans] = { chunkBytes: reference.bytes - h.bytes, slots: h.slots - reference.slots };
  }
  return { reference: reference.bytes, windows: out };
}
