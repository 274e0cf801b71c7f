/**
 * Building the firmware with the Moddable SDK's tools and running it in the
 * desktop simulator, for the firmware tests (docs/moddable.md and docs/tls.md). Node only.
 * `MODDABLE` must point to an SDK with its Linux tools built; `binDir` is
 * undefined otherwise and the tests skip.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { basename, delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { XsbugLog } from './xsbug.js';

/** The repository root (tests run from build/test/moddable). */
export const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
export const moddable = process.env.MODDABLE;
/** Directory of mcconfig and mcsim, when MODDABLE has them. */
export const binDir =
  moddable === undefined
    ? undefined
    : ['release', 'debug']
        .map((d) => join(moddable, 'build', 'bin', 'lin', d))
        .find((d) => existsSync(join(d, 'mcconfig')));
/** manifest.json, platform lin: config.file.root (the simulator's preferences). */
const simRoot = '/tmp/dds-agent-sim/';

/** Why the firmware cannot be built here, or undefined when it can. */
export function missingSdk(): string | undefined {
  if (moddable === undefined) return 'MODDABLE is not set';
  if (binDir === undefined) return `no mcconfig under ${moddable}/build/bin/lin`;
  return undefined;
}

export function onPath(name: string): boolean {
  return (process.env.PATH ?? '').split(delimiter).some((d) => existsSync(join(d, name)));
}

/** Whether mcsim (built with GTK 3) and xvfb-run are present. */
export function canSimulate(): boolean {
  return binDir !== undefined && existsSync(join(binDir, 'mcsim')) && onPath('xvfb-run');
}

function run(command: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      command,
      args,
      { cwd: root, env: { ...process.env, PATH: `${binDir}${delimiter}${process.env.PATH}` }, maxBuffer: 64 << 20 },
      (error, stdout, stderr) =>
        error ? reject(new Error(`${command} failed: ${stderr.slice(-2000)}`)) : resolve(stdout),
    );
  });
}

/**
 * Bundles the agent and builds `manifest` (default the root manifest.json) for
 * lin with `mcconfig -d -m -p lin -t build` and `name=value` settings into
 * `outDir`; returns the path of the simulator's mc.so.
 */
export async function buildFirmware(
  outDir: string,
  settings: string[],
  manifest = join(root, 'manifest.json'),
): Promise<string> {
  await run(process.execPath, [
    join(root, 'node_modules', 'rollup', 'dist', 'bin', 'rollup'),
    '-c',
    'rollup.config.mjs',
  ]);
  mkdirSync(outDir, { recursive: true });
  await run('mcconfig', ['-d', '-m', '-p', 'lin', '-t', 'build', '-o', outDir, manifest, ...settings]);
  // mcconfig names the build after the manifest's directory.
  return join(outDir, 'bin', 'lin', 'mc', 'debug', basename(dirname(manifest)), 'mc.so');
}

/** One firmware run in mcsim under xvfb-run, its log and instruments through `xsbug`. */
export class SimRun {
  readonly xsbug = new XsbugLog();
  private sim: ChildProcess | undefined;

  /** Starts mcsim on `soPath` with fresh simulator preferences. */
  async start(soPath: string): Promise<void> {
    rmSync(simRoot, { recursive: true, force: true });
    mkdirSync(simRoot, { recursive: true });
    const port = await this.xsbug.listen();
    this.sim = spawn('xvfb-run', ['-a', join(binDir ?? '', 'mcsim'), soPath], {
      env: { ...process.env, XSBUG_HOST: '127.0.0.1', XSBUG_PORT: String(port) },
      stdio: 'ignore',
      detached: true,
    });
  }

  /**
   * Resolves with `check()`'s first defined result, tried on the simulator's own
   * events (trace lines, instrument samples about once a second); rejects after
   * `limitMs` with the firmware's log.
   */
  until<T>(check: () => Promise<T | undefined>, limitMs = 90_000): Promise<T> {
    const log = this.xsbug;
    return new Promise<T>((resolve, reject) => {
      let busy = false;
      // A watchdog, not a sleep: a simulator that crashed sends no more events.
      const watchdog = setTimeout(() => {
        log.onEvent = () => undefined;
        reject(new Error(`nothing within ${limitMs} ms; firmware log:\n${log.lines.join('\n')}`));
      }, limitMs);
      log.onEvent = () => {
        if (busy) return;
        busy = true;
        check()
          .then((found) => {
            if (found !== undefined) {
              clearTimeout(watchdog);
              log.onEvent = () => undefined;
              resolve(found);
            }
          })
          .catch(() => undefined)
          .finally(() => (busy = false));
      };
    });
  }

  /** Stops the simulator (its process group, by PID) and the xsbug endpoint. */
  async stop(): Promise<void> {
    if (this.sim?.pid !== undefined) {
      try {
        process.kill(-this.sim.pid, 'SIGTERM');
      } catch {
        // already gone
      }
    }
    await this.xsbug.close();
  }
}
