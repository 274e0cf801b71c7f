/**
 * mcsim's own floor, for bench:mcsim: the simulator's CPU a second running an app that does nothing but trace a
 * line once a second, bare or keeping one idle TCP socket open. It is what mcsim spends whatever the firmware
 * does (its GTK main loop, about 60 wake-ups a second under xvfb-run; with a socket, the SDK's lin socket
 * service, 50 more; a debug build's instruments sent to our xsbug endpoint once a second), which a board does not
 * have: bench:mcsim takes the socket floor from each steady window to give the firmware's own CPU per record.
 * The app is built the same way as the firmware (`mcconfig -m -p lin`, `-d` for a debug build; the SDK's base
 * and network manifests) in a scratch folder, so the two differ only in what the firmware does.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo, type Socket } from 'node:net';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { buildSim, simPrefs, SimRun } from '../test/moddable/mcsim.js';

/**
 * The app: a timer that traces a count once a second (so the run sees its own events besides instruments);
 * with `floorPort` set, it also opens a TCP socket to that port and keeps it, silent (see `measureFloor`).
 */
const APP = [
  'import Timer from "timer";',
  'import { Socket } from "socket";',
  'import config from "mc/config";',
  'let n = 0;',
  'const keep = config.floorPort ? new Socket({ host: "127.0.0.1", port: Number(config.floorPort) }) : undefined;',
  'if (keep) keep.callback = () => undefined;',
  'Timer.repeat(() => trace(`floor ${++n} ${keep ? "socket" : ""}\\n`), 1000);',
  '',
].join('\n');

export interface Floor {
  ms: number;
  cpuMs: number;
  /** mcsim's CPU a second (ms), the app's tick included. */
  cpuMsPerS: number;
  load1: number;
}

/**
 * Builds the app in `dir` (a release build when `debug` is false) and measures mcsim's CPU over `windowMs` once it
 * has run for 10 s. With `socket`, the app keeps one socket open to a local TCP server of ours that accepts and
 * stays silent (the run fails if the app never connected): on lin the SDK's sockets are served by a 20 ms glib
 * timer while any socket exists (50 wake-ups a second of the simulator's main loop), which a firmware with its hub
 * connected always pays there and a board never does.
 */
export async function measureFloor(dir: string, windowMs: number, debug: boolean, socket: boolean): Promise<Floor> {
  if (!socket) return measureApp(dir, windowMs, debug, undefined);
  const held = new Set<Socket>();
  let accepted = 0;
  const server = createServer((peer) => {
    accepted += 1;
    held.add(peer);
    peer.on('error', () => undefined).on('close', () => held.delete(peer));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const floor = await measureApp(dir, windowMs, debug, (server.address() as AddressInfo).port);
    if (accepted === 0) throw new Error('floor app: its socket never connected');
    return floor;
  } finally {
    for (const peer of held) peer.destroy();
    await new Promise((resolve) => server.close(resolve));
  }
}

/** The app built (`socketPort`: the port its socket connects to, if any) and measured. */
async function measureApp(
  dir: string,
  windowMs: number,
  debug: boolean,
  socketPort: number | undefined,
): Promise<Floor> {
  const app = join(dir, `floor-${debug ? 'debug' : 'release'}${socketPort === undefined ? '' : '-socket'}`);
  mkdirSync(app, { recursive: true });
  writeFileSync(join(app, 'main.js'), APP);
  const manifest = join(app, 'manifest.json');
  writeFileSync(
    manifest,
    JSON.stringify({
      include: ['$(MODDABLE)/examples/manifest_base.json', '$(MODDABLE)/examples/manifest_net.json'],
      modules: { '*': ['./main'] },
      platforms: { lin: { config: { file: { root: `${simPrefs(app)}/` } } } },
    }),
  );
  const settings = socketPort === undefined ? [] : [`floorPort=${socketPort}`];
  const so = await buildSim(join(app, 'out'), settings, manifest, debug);
  const sim = new SimRun(simPrefs(app), !debug);
  try {
    await sim.start(so);
    // A release build's trace lines come in blocks (standard output to a pipe): there, mcsim running is enough.
    const started = (): boolean =>
      debug ? sim.xsbug.lines.some((l) => l.startsWith('floor ')) : sim.cpuMs() !== undefined;
    await sim.until(async () => (started() ? true : undefined), 120_000);
    await sim.runFor(10_000);
    const at = [Date.now(), sim.cpuMs() ?? 0];
    await sim.runFor(windowMs);
    const ms = Date.now() - at[0]!;
    const cpuMs = (sim.cpuMs() ?? 0) - at[1]!;
    if (!sim.running) throw new Error(`floor app: mcsim ended (${sim.ended})`);
    return { ms, cpuMs, cpuMsPerS: +((cpuMs / ms) * 1000).toFixed(1), load1: +loadavg()[0]!.toFixed(2) };
  } finally {
    await sim.stop();
  }
}
