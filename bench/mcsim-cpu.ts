/**
 * bench:mcsim: the Moddable simulator's CPU per record delivered over https, for the firmware of a reference
 * commit (MCSIM_BEFORE, default `main`: "before") and the firmware of this tree ("after"), measured the same
 * way in one run (docs/moddable.md, "What a board pays per request"). The local service is TLS-only (https and
 * wss, a fresh CA built into the image); each firmware is a `lin` debug build of the demo device (13 channels)
 * and for each:
 * - steady: MCSIM_STEADY_MS (default 180 s) once steady, with the service's TLS session resumption offered;
 *   for the before firmware also a second window without it (every handshake a full one, as the issue first
 *   measured). mcsim's CPU time (user + system, /proc), the records stored and the TLS connections opened;
 * - idle network: the same firmware and device, every channel scanned as before but reporting only once a day
 *   (the service's fixture changed, nothing else), so nothing is sent but the hub's pings: mcsim's CPU a
 *   second over MCSIM_IDLE_MS (default 90 s). That is the background a record does not cause (the scans, the
 *   timers, the debug build's instruments sent to xsbug, mcsim's window under xvfb-run).
 * - mcsim's floor (bench/mcsim-floor.ts): an app that only traces once a second, built the same way, its CPU a
 *   second over MCSIM_IDLE_MS, bare and keeping one idle socket open (to a local server that says nothing): what
 *   the simulator spends whatever runs in it (GTK's main loop, the SDK's lin socket service, the instruments).
 * Per firmware it prints the whole figure (CPU per record), the firmware's own (the steady CPU less the socket floor a
 * second times the window, per record: what a board would run) and the network's own (less the idle CPU a
 * second instead), then the three ratios after/before. The reference is MCSIM_BEFORE, default `b8b0bd8`: the
 * last `main` with the SDK's `http` (a connection per request), the "today". CPU time, not wall time: the
 * machine may be shared, so the load average is printed beside each window. The before tree is taken with
 * `git archive` into a scratch folder (removed at the end) and bundled there with this tree's node_modules.
 * Needs MODDABLE (an SDK with its Linux tools built), mcsim, xvfb-run and openssl; says why and prints
 * {"skipped": ...} otherwise. Last line: one JSON object.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { startService, type RunningService } from '../host-sim/service/index.js';
import { generatePki, hasOpenssl } from '../host-sim/tls/pki.js';
import { storedRecords } from '../test/moddable/door-records.js';
import { measureFloor, type Floor } from './mcsim-floor.js';
import { buildFirmware, canSimulate, missingSdk, root, simManifest, simPrefs, SimRun } from '../test/moddable/mcsim.js';

const STEADY_MS = Number(process.env.MCSIM_STEADY_MS ?? 180_000);
const IDLE_MS = Number(process.env.MCSIM_IDLE_MS ?? 90_000);
const BEFORE = process.env.MCSIM_BEFORE ?? 'b8b0bd8';
/** `release` (the default: no debugger, as on a board) or `debug` (`mcconfig -d`: xsbug connected). */
const BUILD = process.env.MCSIM_BUILD === 'debug' ? 'debug' : 'release';
const DEBUG = BUILD === 'debug';
const DAY_MS = 86_400_000;

interface Window {
  resumption: boolean;
  ms: number;
  cpuMs: number;
  records: number;
  tlsConnections: number;
  resumed: number;
  load1: number;
}

function skipReason(): string | undefined {
  const sdk = missingSdk();
  if (sdk !== undefined) return `${sdk}; set MODDABLE to a Moddable SDK with its Linux tools built`;
  if (!canSimulate()) return 'needs mcsim (built with GTK 3) and xvfb-run';
  if (!hasOpenssl()) return 'openssl is not on PATH (it makes the test CA)';
  return undefined;
}

/** The demo fixture with every channel reporting once a day: the same scans, nothing to send. */
function idleFixture(dir: string): string {
  const demo = JSON.parse(readFileSync(join(root, 'host-sim', 'service', 'fixtures', 'demo.json'), 'utf8')) as {
    products: Array<{ channels: Array<{ transmitEvents?: unknown }> }>;
  };
  for (const product of demo.products)
    for (const channel of product.channels) channel.transmitEvents = [{ type: 'interval', interval: DAY_MS }];
  const file = join(dir, 'idle.json');
  writeFileSync(file, JSON.stringify(demo));
  return file;
}

/** Builds, boots and measures one firmware: its steady windows and its idle window. */
async function measure(name: string, tree: string, scratch: string, windows: boolean[]) {
  const dir = join(scratch, name);
  mkdirSync(dir, { recursive: true });
  const pki = generatePki({ ipAddresses: ['127.0.0.1'] });
  writeFileSync(join(dir, 'ca.pem'), pki.caPem);
  execFileSync('openssl', ['x509', '-in', join(dir, 'ca.pem'), '-outform', 'der', '-out', join(dir, 'dds-ca.der')]);
  const tls = { cert: pki.certPem + pki.caPem, key: pki.keyPem };
  const demo = join(root, 'host-sim', 'service', 'fixtures', 'demo.json');
  let service: RunningService = await startService({ fixture: demo, dbPath: join(dir, 'steady.db'), tls });
  const port = service.port;
  const manifest = simManifest(dir, { resources: { '*': [join(dir, 'dds-ca')] } }, tree);
  const settings = [`serviceUrl=${service.url}`, 'caCert=dds-ca.der'];
  const so = await buildFirmware(join(dir, 'out'), settings, manifest, tree, DEBUG);
  let sim = new SimRun(simPrefs(dir), !DEBUG);
  const steady: Window[] = [];
  try {
    await sim.start(so);
    let db = join(dir, 'steady.db');
    const running = service;
    await sim.until(
      async () => (running.hub.connectionCount() > 0 && storedRecords(db) > 0 ? true : undefined),
      180_000,
    );
    await sim.runFor(10_000);
    for (const resumption of windows) {
      service.connections.resumption = resumption;
      const at = [
        Date.now(),
        sim.cpuMs() ?? 0,
        storedRecords(db),
        service.connections.tls,
        service.connections.resumed,
      ];
      await sim.runFor(STEADY_MS);
      steady.push({
        resumption,
        ms: Date.now() - at[0]!,
        cpuMs: (sim.cpuMs() ?? 0) - at[1]!,
        records: storedRecords(db) - at[2]!,
        tlsConnections: service.connections.tls - at[3]!,
        resumed: service.connections.resumed - at[4]!,
        load1: +loadavg()[0]!.toFixed(2),
      });
      console.log(`${name} steady: ${JSON.stringify(steady[steady.length - 1])}`);
      if (steady[steady.length - 1]!.records === 0) throw new Error(`${name}: no record stored in the window`);
      const abort = sim.xsbug.lines.find((l) => /XS abort|unhandled exception/.test(l));
      if (abort !== undefined) throw new Error(`${name}: ${abort}`);
    }
    // The same image and port, the service now asking for a report a day from every channel.
    await sim.stop();
    await service.close();
    db = join(dir, 'idle.db');
    service = await startService({ fixture: idleFixture(dir), port, dbPath: db, tls });
    sim = new SimRun(simPrefs(dir), !DEBUG);
    await sim.start(so);
    const idleService = service;
    await sim.until(
      async () => (idleService.hub.connectionCount() > 0 && storedRecords(db) > 0 ? true : undefined),
      180_000,
    );
    await sim.runFor(15_000);
    const at = [Date.now(), sim.cpuMs() ?? 0, storedRecords(db)];
    await sim.runFor(IDLE_MS);
    const idle = {
      ms: Date.now() - at[0]!,
      cpuMs: (sim.cpuMs() ?? 0) - at[1]!,
      records: storedRecords(db) - at[2]!,
      load1: +loadavg()[0]!.toFixed(2),
    };
    console.log(`${name} idle network: ${JSON.stringify(idle)}`);
    if (!sim.running) throw new Error(`${name}: mcsim ended`);
    return { steady, idle };
  } finally {
    await sim.stop();
    await service.close();
  }
}

/** The whole figure, the firmware's own (less mcsim's floor) and the network's own (less the idle CPU), ms per record. */
function perRecord(w: Window, idle: { ms: number; cpuMs: number }, floor: Floor) {
  // The window's CPU less a background's CPU a second over the same time, per record.
  const less = (bg: { ms: number; cpuMs: number }): number =>
    +((w.cpuMs - (bg.cpuMs / bg.ms) * w.ms) / Math.max(1, w.records)).toFixed(2);
  return {
    wholeMsPerRecord: less({ ms: 1, cpuMs: 0 }),
    firmwareMsPerRecord: less(floor),
    networkMsPerRecord: less(idle),
    idleCpuMsPerS: +((idle.cpuMs / idle.ms) * 1000).toFixed(1),
  };
}

const why = skipReason();
if (why !== undefined) {
  console.log(`bench:mcsim: skipped: ${why}`);
  console.log(JSON.stringify({ skipped: why }));
} else {
  const scratch = mkdtempSync(join(tmpdir(), 'dds-bench-mcsim-'));
  try {
    const commit = execFileSync('git', ['rev-parse', '--short', BEFORE], { cwd: root, encoding: 'utf8' }).trim();
    const head = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8' }).trim();
    const changed = execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], {
      cwd: root,
      encoding: 'utf8',
    });
    const beforeTree = join(scratch, 'before-tree');
    mkdirSync(beforeTree);
    execFileSync('sh', ['-c', `git archive ${commit} | tar -x -C "${beforeTree}"`], { cwd: root });
    symlinkSync(join(root, 'node_modules'), join(beforeTree, 'node_modules'));
    console.log(
      `before: ${BEFORE} (${commit}); after: this tree (HEAD ${head}${changed === '' ? '' : ', with uncommitted changes'}); ${STEADY_MS / 1000} s steady windows, ${IDLE_MS / 1000} s idle, ${BUILD} builds`,
    );
    const bareFloor = await measureFloor(scratch, IDLE_MS, DEBUG, false);
    console.log(`mcsim's floor, bare: ${JSON.stringify(bareFloor)}`);
    const floor = await measureFloor(scratch, IDLE_MS, DEBUG, true);
    console.log(`mcsim's floor, one idle socket open: ${JSON.stringify(floor)}`);
    const before = await measure('before', beforeTree, scratch, [true, false]);
    const after = await measure('after', root, scratch, [true]);
    const b = before.steady.map((w) => ({ ...w, ...perRecord(w, before.idle, floor) }));
    const a = after.steady.map((w) => ({ ...w, ...perRecord(w, after.idle, floor) }));
    const [bOn, bOff, aOn] = [b[0]!, b[1]!, a[0]!];
    const ratio = (x: number, y: number): number => +(x / y).toFixed(3);
    const ratios = {
      wholeAfterOverBefore: ratio(aOn.wholeMsPerRecord, bOn.wholeMsPerRecord),
      firmwareAfterOverBefore: ratio(aOn.firmwareMsPerRecord, bOn.firmwareMsPerRecord),
      networkAfterOverBefore: ratio(aOn.networkMsPerRecord, bOn.networkMsPerRecord),
      wholeAfterOverBeforeFull: ratio(aOn.wholeMsPerRecord, bOff.wholeMsPerRecord),
      firmwareAfterOverBeforeFull: ratio(aOn.firmwareMsPerRecord, bOff.firmwareMsPerRecord),
      networkAfterOverBeforeFull: ratio(aOn.networkMsPerRecord, bOff.networkMsPerRecord),
    };
    for (const [label, w] of [
      ['before, resumption offered', bOn],
      ['before, full handshakes only', bOff],
      ['after, resumption offered', aOn],
    ] as const)
      console.log(
        `${label}: ${w.records} records, ${w.tlsConnections} TLS connections (${w.resumed} resumed), ` +
          `${w.wholeMsPerRecord} ms CPU per record whole, ${w.firmwareMsPerRecord} ms the firmware's own, ` +
          `${w.networkMsPerRecord} ms the network's own ` +
          `(idle ${w.idleCpuMsPerS} ms a second), load ${w.load1}`,
      );
    console.log(
      `after/before (resumption offered to both): whole ${ratios.wholeAfterOverBefore}, the firmware's own ` +
        `${ratios.firmwareAfterOverBefore}, the network's own ${ratios.networkAfterOverBefore}; against the ` +
        `before's full handshakes: whole ${ratios.wholeAfterOverBeforeFull}, the firmware's own ` +
        `${ratios.firmwareAfterOverBeforeFull}, the network's own ${ratios.networkAfterOverBeforeFull} ` +
        `(mcsim's floor ${floor.cpuMsPerS} ms a second with a socket open, ${bareFloor.cpuMsPerS} bare; the issue asks <= 0.25)`,
    );
    console.log(
      JSON.stringify({
        build: BUILD,
        before: { ref: BEFORE, commit, windows: b, idle: before.idle },
        after: { head, changed: changed !== '', windows: a, idle: after.idle },
        floor: { bare: bareFloor, socket: floor },
        ratios,
      }),
    );
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
