/**
 * bench:heap: the firmware's heap at ESP32 sizes, measured in the Moddable
 * simulator (mcsim) over TLS: the local service TLS-only (https and wss), the
 * hub's wss session open beside the HTTP connection, for 8 and 32 analog
 * channels (each reporting about once a second, so batches and their TLS
 * handshakes keep coming). mcsim's instruments come through xsbug
 * (test/moddable/xsbug.ts) about once a second and are converted to ESP32 sizes
 * by test/moddable/heap-esp32.ts (16 B slots; chunk bytes kept as an upper bound).
 * The build gives lin small heap increments, so XS grows its heaps only as far
 * as the live heap needs (the reserved size tracks the peak).
 *
 * Figures per channel count: the floor (lowest sample in use), the peak in use
 * and the reserved heap over a steady window, then the fixed part and the cost
 * per channel (from the two floors), each held against the ESP32's
 * creation.static 131,072 B and the SDK's handshake room (10 KB chunks + 6 KB
 * slots free). Needs MODDABLE (an SDK with its Linux tools built), mcsim,
 * xvfb-run and openssl; says why and prints {"skipped": ...} otherwise.
 * The build and the test CA are kept in build/heap-sim/ (incremental rebuilds).
 * Last line: one JSON object.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';
import { join } from 'node:path';
import { startService } from '../host-sim/service/index.js';
import { generatePki, hasOpenssl } from '../host-sim/tls/pki.js';
import { fits, perChannel, summarize, type HeapSummary } from '../test/moddable/heap-esp32.js';
import { buildFirmware, canSimulate, missingSdk, root, SimRun } from '../test/moddable/mcsim.js';

const CHANNELS = [8, 32];
/**
 * HEAP_FIXED=<slot bytes>,<chunk bytes> at ESP32 sizes (summing to at most 131,072): the simulator's heaps are
 * fixed at that split (no increments: XS aborts when one is exhausted), the run must survive its window.
 * The slot heap gets bytes / 16 slots; the chunk heap the bytes as given (its 64-bit chunks are larger than
 * the ESP32's, so surviving here is the stricter test).
 */
const fixed = /^(\d+),(\d+)$/.exec(process.env.HEAP_FIXED ?? '');
const WINDOW_MS = Number(process.env.HEAP_WINDOW_MS ?? 45_000);
const dir = join(root, 'build', 'heap-sim');

function skipReason(): string | undefined {
  const sdk = missingSdk();
  if (sdk !== undefined) return `${sdk}; set MODDABLE to a Moddable SDK with its Linux tools built`;
  if (!canSimulate()) return 'needs mcsim (built with GTK 3) and xvfb-run';
  if (!hasOpenssl()) return 'openssl is not on PATH (it makes the test CA)';
  return undefined;
}

/** The test CA and server certificate, made once and kept with the build (the CA is a resource in the image). */
function pki(): { certPem: string; keyPem: string; caPem: string } {
  const file = join(dir, 'pki.json');
  if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8')) as ReturnType<typeof pki>;
  const made = generatePki({ ipAddresses: ['127.0.0.1'], days: 3650 });
  const kept = { certPem: made.certPem, keyPem: made.keyPem, caPem: made.caPem };
  writeFileSync(join(dir, 'ca.pem'), kept.caPem);
  execFileSync('openssl', ['x509', '-in', join(dir, 'ca.pem'), '-outform', 'der', '-out', join(dir, 'dds-ca.der')]);
  writeFileSync(file, JSON.stringify(kept));
  return kept;
}

/** The demo fixture with demo-001's product holding `n` analog inputs that report about once a second. */
function fixture(n: number): string {
  const demo = JSON.parse(readFileSync(join(root, 'host-sim', 'service', 'fixtures', 'demo.json'), 'utf8')) as {
    products: Array<{ channels: unknown[]; buses: unknown[] }>;
  };
  const product = demo.products[0]!;
  product.buses = [];
  product.channels = Array.from({ length: n }, (_, i) => ({
    uid: `8b3c4d5e-2f30-4b6c-9d7e-${String(i + 1).padStart(12, '0')}`,
    key: `a${i}`,
    name: `Analog ${i}`,
    type: 'analogInput',
    pin: 32 + (i % 32),
    scaleGain: 0.1,
    scaleOffset: -40,
    scanInterval: 1000,
    aggregated: 'last',
    aggregatedLast: 'last',
    order: i + 1,
    transmitEvents: [{ type: 'delta', minimalChange: 0.5 }],
  }));
  const file = join(dir, `fixture-${n}.json`);
  writeFileSync(file, JSON.stringify(demo));
  return file;
}

/** The root manifest with the CA, simulator preferences in build/heap-sim/prefs and small heap increments. */
function manifest(): string {
  const file = join(dir, 'manifest.json');
  writeFileSync(
    file,
    JSON.stringify({
      include: [join(root, 'manifest.json')],
      resources: { '*': [join(dir, 'dds-ca')] },
      // As the ESP32 build (manifest.json platforms.esp32): the firmware's module preloaded into flash.
      // HEAP_PRELOAD=0 measures it loaded at run time instead, as the simulator's own build does.
      ...(process.env.HEAP_PRELOAD === '0' ? {} : { preload: ['main'] }),
      config: { caCert: 'dds-ca.der' },
      platforms: {
        lin: {
          config: { file: { root: `${join(dir, 'prefs')}/` } },
          creation:
            fixed === null
              ? { chunk: { initial: 32768, incremental: 2048 }, heap: { initial: 2048, incremental: 128 } }
              : {
                  chunk: { initial: Number(fixed[2]), incremental: 0 },
                  heap: { initial: Math.floor(Number(fixed[1]) / 16), incremental: 0 },
                },
        },
      },
    }),
  );
  return file;
}

/** How many of the device's channels have a `.reported` state at the service (admin token of the demo fixture). */
function reportedCount(url: string, ca: string): Promise<number> {
  return new Promise((resolve) => {
    const req = request(
      `${url}/api/v1/states/read/last?device=demo-001`,
      { ca, headers: { Authorization: 'Bearer admin-token-demo' } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => (text += d));
        res.on('end', () => {
          try {
            const states = JSON.parse(text) as Array<{ channel: string }>;
            resolve(states.filter((s) => s.channel.endsWith('.reported')).length);
          } catch {
            resolve(0);
          }
        });
      },
    );
    req.on('error', () => resolve(0));
    req.end();
  });
}

async function measure(n: number, tls: ReturnType<typeof pki>): Promise<HeapSummary & { channels: number }> {
  const service = await startService({ fixture: fixture(n), tls: { cert: tls.certPem + tls.caPem, key: tls.keyPem } });
  const sim = new SimRun(join(dir, 'prefs'));
  sim.xsbug.keepSamples = true;
  try {
    // The service's address built in (a rebuild of the configuration only): with `main` preloaded, the
    // simulator's `preference` module reads its file at build time, so a preference cannot carry it.
    const started = Date.now();
    const soPath = await buildFirmware(join(dir, 'out'), [`serviceUrl=${service.url}`], manifest());
    console.log(`firmware built in ${Date.now() - started} ms (build/heap-sim, incremental)`);
    await sim.start(soPath);
    // Steady: every channel reported once and the hub connected over wss.
    await sim.until(
      async () =>
        service.hub.connectionCount() > 0 && (await reportedCount(service.url, tls.caPem)) >= n ? true : undefined,
      180_000,
    );
    sim.xsbug.samples.length = 0;
    await sim.runFor(WINDOW_MS);
    const aborts = sim.xsbug.lines.filter((l) => /abort|unhandled/i.test(l));
    if (aborts.length > 0) throw new Error(`the firmware aborted: ${aborts.join('; ')}`);
    if (service.hub.connectionCount() === 0) throw new Error('the hub was not connected at the end of the window');
    return { channels: n, ...summarize(sim.xsbug.samples) };
  } finally {
    await sim.stop();
    await service.close();
  }
}

const kb = (bytes: number): string => `${(bytes / 1024).toFixed(1)} KB`;

const why = skipReason();
if (why !== undefined) {
  console.log(`bench:heap: skipped: ${why}`);
  console.log(JSON.stringify({ skipped: why }));
} else {
  mkdirSync(dir, { recursive: true });
  const tls = pki();
  const runs = [];
  for (const n of CHANNELS) {
    const run = await measure(n, tls);
    runs.push(run);
    const peak = fits(run.reserved, run.floor);
    console.log(
      `${n} channels over TLS, hub open, ${run.samples} samples in ${WINDOW_MS / 1000} s, ${run.collections} GCs: ` +
        `floor ${kb(run.floor.totalBytes)} (slots ${kb(run.floor.slotBytes)}, chunks <= ${kb(run.floor.chunkBytes)}), ` +
        `peak in use ${kb(run.peakUsed.totalBytes)}, reserved ${kb(run.reserved.totalBytes)} ` +
        `(slots ${kb(run.reserved.slotBytes)}, chunks <= ${kb(run.reserved.chunkBytes)}) of 128 KB: ` +
        `${peak.fits ? `fits, ${kb(peak.spareBytes)} spare` : `does NOT fit, ${kb(-peak.spareBytes)} over`}; ` +
        `handshake room (16 KB) above the floor: ${peak.handshakeRoom ? 'yes' : 'no'}`,
    );
  }
  const split = perChannel(runs[0]!, runs[runs.length - 1]!);
  console.log(
    `fixed part (floor minus channels, the hub's TLS session included): ${kb(split.fixedBytes)}; ` +
      `per channel ${Math.round(split.perChannelBytes)} B (ESP32 sizes, chunks as upper bounds)`,
  );
  if (fixed !== null)
    console.log(
      `fixed heaps (ESP32 sizes) slots ${fixed[1]} B + chunks ${fixed[2]} B: the firmware ran ${WINDOW_MS / 1000} s ` +
        `for each channel count over TLS with the hub open, no abort`,
    );
  console.log(
    JSON.stringify({
      ...(fixed === null ? {} : { fixedHeap: { slotBytes: Number(fixed[1]), chunkBytes: Number(fixed[2]) } }),
      windowMs: WINDOW_MS,
      esp32StaticBytes: 131_072,
      runs: runs.map((r) => ({ ...r, fit: fits(r.reserved, r.floor) })),
      fixedBytes: Math.round(split.fixedBytes),
      perChannelBytes: Math.round(split.perChannelBytes),
    }),
  );
}
