/**
 * One firmware run in the desktop simulator: mcsim under xvfb-run, its trace lines and instrument samples
 * through an xsbug endpoint of ours, its CPU time from /proc (docs/moddable.md). Node only; built images
 * come from `buildFirmware` / `buildSim` in mcsim.ts, which says when the SDK is there.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { binDir } from './mcsim.js';
import { XsbugLog } from './xsbug.js';

/** One firmware run in mcsim under xvfb-run, its log and instruments through `xsbug`. */
export class SimRun {
  readonly xsbug = new XsbugLog();
  private sim: ChildProcess | undefined;
  private exited = false;
  /** How the simulator's process ended (xvfb-run passes on mcsim's status: 141 is SIGPIPE), once it has. */
  private exit = '';

  /** A release build's heartbeat (it has no xsbug connection: see `release`). */
  private ticks: ReturnType<typeof setInterval> | undefined;

  /**
   * `prefs`: the build's simulator preferences folder (`simPrefs`). `release`: the image is a release build
   * (`buildSim(..., false)`): it has no debugger connection, so its `trace` lines come from mcsim's standard
   * output (in blocks, as the C library flushes them), it sends no instrument samples, and its events are a
   * one-second heartbeat of ours: `until` checks once a second, and `runFor` fails only if mcsim ends.
   */
  constructor(
    private readonly prefs: string,
    private readonly release = false,
  ) {}

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
      stdio: ['ignore', this.release ? 'pipe' : 'ignore', 'ignore'],
      detached: true,
    });
    if (this.release) {
      let partial = '';
      this.sim.stdout?.setEncoding('utf8').on('data', (data: string) => {
        const parts = (partial + data).split('\n');
        partial = parts.pop() ?? '';
        this.xsbug.lines.push(...parts);
      });
      this.ticks = setInterval(() => this.xsbug.onEvent(), 1_000);
    }
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
    clearInterval(this.ticks);
    await this.xsbug.close();
  }
}
