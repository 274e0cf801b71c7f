/**
 * One firmware run in mcsim for the heap at ESP32 sizes (bench/heap-sim.ts and
 * heap-esp32-boot.test.ts; docs/moddable.md, "Heap on an ESP32"): the local
 * service TLS-only (https and wss) with session resumption off, so the hub's wss
 * connect at boot is a full handshake while the kept-alive HTTP connection's
 * session is open; `channels` analog inputs reporting about once a second.
 *
 * The build is the board's where it matters: `main` preloaded (as on the ESP32),
 * and the preference module a board's (targets/moddable/sim/preference.js, in
 * place of the SDK's lin module, which turns each blob byte into a string). The
 * simulator's heaps either grow in small increments (the reserved size is then an
 * upper bound of the peak live heap, close to it) or are fixed at a split (no
 * increments: XS aborts when one is exhausted). Needs MODDABLE, mcsim, xvfb-run
 * and openssl (`heapSkipReason`). Node only.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fixture, pki } from './heap-fixture.js';
import { request } from 'node:https';
import { join } from 'node:path';
import { startService, type RunningService } from '../../host-sim/service/index.js';
import { hasOpenssl } from '../../host-sim/tls/pki.js';
import { summarize, type FixedHeaps, type HeapSummary } from './heap-esp32.js';
import { ChunkWatcher, type ChunkWatch } from './chunk-watch.js';
import { buildFirmware, canSimulate, missingSdk, root, SimRun } from './mcsim.js';

/** Why the run cannot happen here, or undefined. */
export function heapSkipReason(): string | undefined {
  const sdk = missingSdk();
  if (sdk !== undefined) return `${sdk}; set MODDABLE to a Moddable SDK with its Linux tools built`;
  if (!canSimulate()) return 'needs mcsim (built with GTK 3) and xvfb-run';
  if (!hasOpenssl()) return 'openssl is not on PATH (it makes the test CA)';
  return undefined;
}

export { analogChannels, fixture, pki } from './heap-fixture.js';

/**
 * The root manifest as the board builds it, in `dir`: its relative paths made absolute, the SDK's
 * preference manifest left out for the board-like module, the CA as a resource, small increments or
 * `fixed` heaps. `preload: false` loads `main` at run time instead (as the simulator's own build does).
 */
export function manifest(dir: string, fixed: FixedHeaps | undefined, preload: boolean): string {
  const board = JSON.parse(readFileSync(join(root, 'manifest.json'), 'utf8'), (_k, v: unknown) =>
    typeof v === 'string' && v.startsWith('./') ? join(root, v) : v,
  ) as { include: string[] };
  board.include = board.include.filter((p) => !p.includes('/files/preference/'));
  writeFileSync(join(dir, 'board-manifest.json'), JSON.stringify(board));
  const file = join(dir, 'manifest.json');
  const creation =
    fixed === undefined
      ? { chunk: { initial: 32768, incremental: 2048 }, heap: { initial: 2048, incremental: 128 } }
      : {
          chunk: { initial: fixed.chunkBytes, incremental: 0 },
          heap: { initial: fixed.slotBytes / 16, incremental: 0 },
        };
  writeFileSync(
    file,
    JSON.stringify({
      include: [join(dir, 'board-manifest.json'), '$(MODULES)/files/file/manifest.json'],
      resources: { '*': [join(dir, 'dds-ca')] },
      ...(preload ? { preload: ['main', 'preference'] } : {}),
      config: { caCert: 'dds-ca.der' },
      platforms: {
        lin: {
          modules: { preference: join(root, 'targets', 'moddable', 'sim', 'preference') },
          config: { file: { root: `${join(dir, 'prefs')}/` } },
          creation,
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

/** What a run saw: the heap over the window (at ESP32 sizes), the service's TLS handshakes. */
export interface HeapRun extends HeapSummary {
  channels: number;
  handshakes: { full: number; resumed: number };
  /** With `watchChunks`: the chunk heap at ESP32 sizes (chunk-watch.ts). */
  chunks?: ChunkWatch;
}

/**
 * Builds (in `dir`, incrementally) and runs the firmware with `channels` channels until every channel
 * reported and the hub is connected over wss, then `windowMs` more (with `drop`, the service drops
 * every connection halfway, so both reconnect at the steady heap; with `change`, the service is restarted
 * on its port halfway with every channel's configuration changed, so the firmware reconnects and applies a
 * changed configuration beside the channels in use); rejects if the firmware aborted
 * (its log says why: "memory full" on a fixed heap), the hub is not connected at the end, or either
 * connection's handshake was not a full one.
 */
export async function heapRun(
  dir: string,
  channels: number,
  windowMs: number,
  options: {
    fixed?: FixedHeaps;
    preload?: boolean;
    resume?: boolean;
    watchChunks?: boolean;
    drop?: boolean;
    change?: boolean;
  } = {},
): Promise<HeapRun> {
  mkdirSync(dir, { recursive: true });
  const tls = pki(dir);
  const serve = async (minimalChange?: number, port?: number): Promise<RunningService> => {
    const started = await startService({
      fixture: fixture(dir, channels, minimalChange),
      tls: { cert: tls.certPem + tls.caPem, key: tls.keyPem },
      ...(port === undefined ? {} : { port }),
    });
    // Every handshake a full one (the worst case): the hub's at boot runs beside the HTTP connection's session.
    started.connections.resumption = options.resume === true;
    return started;
  };
  let service = await serve();
  const sim = new SimRun(join(dir, 'prefs'));
  sim.xsbug.keepSamples = true;
  let watcher: ChunkWatcher | undefined;
  try {
    // The service's address built in: with `main` preloaded, mc/config is read at build time.
    const built = manifest(dir, options.fixed, options.preload !== false);
    const soPath = await buildFirmware(join(dir, 'out'), [`serviceUrl=${service.url}`], built);
    // With a watch, the machine's login is answered once gdb watches: nothing of the boot goes unwatched.
    let release = (): void => undefined;
    if (options.watchChunks === true) sim.xsbug.loginGate = new Promise((resolve) => (release = resolve));
    await sim.start(soPath);
    if (options.watchChunks === true) {
      await sim.until(() => Promise.resolve(true));
      const pid = sim.mcsimPid();
      if (pid === undefined) throw new Error('mcsim has no process to watch');
      watcher = new ChunkWatcher(pid, join(dir, 'chunks.json'));
      await watcher.watching.finally(release);
    }
    const aborted = (): string | undefined => {
      const lines = sim.xsbug.lines.filter((l) => /XS abort|allocation: failed/i.test(l));
      return lines.length > 0 || !sim.running
        ? `the firmware aborted: ${lines.join('; ') || `mcsim ended (${sim.ended})`}`
        : undefined;
    };
    // An aborted machine sends nothing more (no event to check on): looked for every second as well.
    let poll: NodeJS.Timeout | undefined;
    const abortedAtBoot = new Promise<false>((resolve) => {
      poll = setInterval(() => aborted() !== undefined && resolve(false), 1000);
    });
    const booted = await Promise.race([
      abortedAtBoot,
      sim.until(async () => {
        if (aborted() !== undefined) return false;
        const up = service.hub.connectionCount() > 0 && (await reportedCount(service.url, tls.caPem)) >= channels;
        return up ? true : undefined;
      }, 180_000),
    ]).finally(() => clearInterval(poll));
    if (!booted) throw new Error(aborted());
    const bootSamples = sim.xsbug.samples.length;
    if (options.change === true) {
      // Halfway, the service back on its port with every channel changed: the firmware reconnects and applies it.
      await sim.runFor(windowMs / 2);
      await service.close();
      service = await serve(0.25, service.port);
      await sim.runFor(windowMs / 2);
      if (sim.xsbug.lines.filter((l) => l.includes('channels configured')).length < 2)
        throw new Error('the changed configuration was not applied');
    } else if (options.drop === true) {
      // Halfway, every connection dropped: both reconnect at the steady heap, one handshake beside the other's session.
      await sim.runFor(windowMs / 2);
      service.connections.dropAll();
      await sim.runFor(windowMs / 2);
    } else await sim.runFor(windowMs);
    const abort = aborted();
    if (abort !== undefined) throw new Error(abort);
    if (service.hub.connectionCount() === 0) throw new Error('the hub was not connected at the end of the window');
    const { tls: full, resumed } = service.connections;
    if (full - resumed < 2) throw new Error(`expected two full TLS handshakes, saw ${full} (${resumed} resumed)`);
    const summary = summarize(sim.xsbug.samples.slice(bootSamples));
    // Reserved at the end covers the boot too (the heaps never shrink).
    const handshakes = { full: full - resumed, resumed };
    return { channels, ...summary, handshakes, ...(watcher ? { chunks: watcher.result() } : {}) };
  } catch (e) {
    // A run that ended early says how, with the firmware's log.
    const log = sim.xsbug.lines.slice(-20).join('\n');
    const error = new Error(`${(e as Error).message.split('\n')[0]}\nfirmware log (last lines):\n${log}`, { cause: e });
    // What the watch saw up to the end (the chunk heap's need so far, the handshakes' starts), if it wrote.
    try {
      if (watcher) Object.assign(error, { chunks: watcher.result() });
    } catch {
      // none written
    }
    throw error;
  } finally {
    await watcher?.stop();
    await sim.stop();
    await service.close();
  }
}
