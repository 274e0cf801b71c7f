/**
 * Building the firmware with the Moddable SDK's tools and running it in the
 * desktop simulator, for the firmware tests (docs/moddable.md and docs/tls.md). Node only.
 * `MODDABLE` must point to an SDK with its Linux tools built; `binDir` is
 * undefined otherwise and the tests skip.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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

function run(command: string, args: string[], cwd = root): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      command,
      args,
      { cwd, env: { ...process.env, PATH: `${binDir}${delimiter}${process.env.PATH}` }, maxBuffer: 64 << 20 },
      (error, stdout, stderr) =>
        error ? reject(new Error(`${command} failed: ${stderr.slice(-2000)}`)) : resolve(stdout),
    );
  });
}

/**
 * Bundles the agent of the source tree `tree` (default this repository; bench:mcsim passes another
 * commit's) and builds `manifest` (default the tree's manifest.json) for lin with
 * `mcconfig -d -m -p lin -t build` and `name=value` settings into `outDir`; returns the path of the
 * simulator's mc.so.
 */
export async function buildFirmware(
  outDir: string,
  settings: string[],
  manifest = join(root, 'manifest.json'),
  tree = root,
): Promise<string> {
  await run(
    process.execPath,
    [join(root, 'node_modules', 'rollup', 'dist', 'bin', 'rollup'), '-c', 'rollup.config.mjs'],
    tree,
  );
  mkdirSync(outDir, { recursive: true });
  await run('mcconfig', ['-d', '-m', '-p', 'lin', '-t', 'build', '-o', outDir, manifest, ...settings]);
  // mcconfig names the build after the manifest's directory.
  return join(outDir, 'bin', 'lin', 'mc', 'debug', basename(dirname(manifest)), 'mc.so');
}

/**
 * Writes `dir`/manifest.json: the root manifest plus `extra` (e.g. resources),
 * with the simulator's preferences (config.file.root of platform lin, where the
 * SDK's `preference` keeps modpreferences.json) in `dir`/prefs/ instead of the
 * root manifest's fixed folder, so runs never share or collide (`tree`: whose manifest). Returns its path.
 */
export function simManifest(dir: string, extra: Record<string, unknown> = {}, tree = root): string {
  const manifest = join(dir, 'manifest.json');
  writeFileSync(
    manifest,
    JSON.stringify({
      include: [join(tree, 'manifest.json')],
      ...extra,
      platforms: { lin: { config: { file: { root: `${simPrefs(dir)}/` } } } },
    }),
  );
  return manifest;
}

/** The simulator preferences folder of a manifest written by `simManifest(dir)`. */
export function simPrefs(dir: string): string {
  return join(dir, 'prefs');
}

/**
 * Keys per preference domain in the simulator's modpreferences.json under
 * `prefs` (the SDK's lin `preference` keeps every domain in that one file);
 * empty when the firmware has written nothing yet.
 */
export function prefKeys(prefs: string): Record<string, number> {
  const file = join(prefs, 'modpreferences.json');
  if (!existsSync(file)) return {};
  const all = JSON.parse(readFileSync(file, 'utf8')) as Record<string, Record<string, unknown>>;
  return Object.fromEntries(Object.entries(all).map(([domain, keys]) => [domain, Object.keys(keys).length]));
}

/** One firmware run in mcsim under xvfb-run, its log and instruments through `xsbug`. */
export class SimRun {
  readonly xsbug = new XsbugLog();
  private sim: ChildProcess | undefined;
  private exited = false;
  /** How the simulator's process ended (xvfb-run passes on mcsim's status: 141 is SIGPIPE), once it has. */
  private exit = '';

  /** `prefs`: the build's simulator preferences folder (`simPrefs`). */
  constructor(private readonly prefs: string) {}

  /** How the mcsim process ended (`exit <code or signal>`; 139: a segmentation fault), or '' while it runs. */
  get ended(): string {
    return this.exit;
  }

  /** Whether the mcsim process has ended. */
  get running(): boolean {
    return this.sim !== undefined && !this.exited;
  }

  /**
   * Starts mcsim on `soPath`; with `fresh` (the default) the preferences folder
   * is emptied first, without it the firmware boots from what a previous run kept
   * there (its cached configuration and outbox).
   */
  async start(soPath: string, fresh = true): Promise<void> {
    if (fresh) rmSync(this.prefs, { recursive: true, force: true });
    mkdirSync(this.prefs, { recursive: true });
    const port = await this.xsbug.listen();
    this.sim = spawn('xvfb-run', ['-a', join(binDir ?? '', 'mcsim'), soPath], {
      env: { ...process.env, XSBUG_HOST: '127.0.0.1', XSBUG_PORT: String(port) },
      stdio: 'ignore',
      detached: true,
    });
    this.sim.on('exit', (code, signal) => {
      this.exited = true;
      this.exit = `exit ${signal ?? code}`;
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

  /**
   * Lets the firmware run for `ms` of real time (an outage lasts that long in
   * wall time: mcsim has no virtual clock), checked on the simulator's own
   * events: rejects at once if mcsim ends, and if no trace line or instrument
   * sample comes for 5 s (a dead or aborted machine). Resolves with the count
   * of events seen.
   */
  runFor(ms: number): Promise<number> {
    const log = this.xsbug;
    return new Promise<number>((resolve, reject) => {
      const startedAt = Date.now();
      let events = 0;
      const fail = (why: string): void => {
        clearTimeout(silence);
        log.onEvent = () => undefined;
        reject(new Error(`${why}; firmware log:\n${log.lines.join('\n')}`));
      };
      const quiet = (): void =>
        fail(`the simulator sent nothing for 5 s (${this.exited ? `mcsim ended: ${this.exit}` : 'still running'})`);
      let silence = setTimeout(quiet, 5_000);
      log.onEvent = () => {
        events += 1;
        clearTimeout(silence);
        if (!this.running) return fail(`mcsim ended: ${this.exit}`);
        if (Date.now() - startedAt >= ms) {
          log.onEvent = () => undefined;
          resolve(events);
          return;
        }
        silence = setTimeout(quiet, 5_000);
      };
    });
  }

  /**
   * CPU time (user + system, ms) of the mcsim process so far, from /proc (Linux): the process of the
   * simulator's group (its PID leads it: `detached`) named mcsim. Undefined when not found.
   */
  cpuMs(): number | undefined {
    const fields = this.mcsimStat();
    // utime and stime (fields 14 and 15 of the whole line) in clock ticks of 10 ms (USER_HZ 100).
    return fields === undefined ? undefined : (Number(fields[11]) + Number(fields[12])) * 10;
  }

  /** The PID of the mcsim process (in the simulator's group), or undefined. */
  mcsimPid(): number | undefined {
    return this.mcsimStat()?.pid;
  }

  /** /proc/<pid>/stat's fields after the command of the group's process named mcsim, with its PID. */
  private mcsimStat(): (string[] & { pid: number }) | undefined {
    const group = this.sim?.pid;
    if (group === undefined) return undefined;
    for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
      let stat: string;
      try {
        stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      } catch {
        continue;
      }
      // pid (comm) state ppid pgrp ...: fields after the command's closing parenthesis.
      const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (comm !== 'mcsim' || Number(fields[2]) !== group) continue;
      return Object.assign(fields, { pid: Number(pid) });
    }
    return undefined;
  }

  /** Stops the simulator (its process group, by PID) and the xsbug endpoint. */
  async stop(): Promise<void> {
    const sim = this.sim;
    if (sim?.pid !== undefined) {
      // Bounded: the process is gone (its listening sockets closed) before a next run starts.
      const gone = new Promise<void>((resolve) => {
        if (this.exited) return resolve();
        const timer = setTimeout(resolve, 10_000);
        sim.once('exit', () => {
          clearTimeout(timer);
          resolve();
        });
      });
      try {
        process.kill(-sim.pid, 'SIGTERM');
      } catch {
        // already gone
      }
      await gone;
    }
    await this.xsbug.close();
  }
}
