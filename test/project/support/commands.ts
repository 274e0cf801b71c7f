/**
 * Runs the project's commands as a user does, for test/project: a bin or an
 * npm script's command line in a child process, with its output, exit code,
 * wall time and CPU time (support/cpu-time.mjs). `scratchCopy` makes a git
 * repository of the working tree's files (tracked and new, not ignored) with
 * `node_modules` linked and `build/` copied, so a test can check that a
 * command wrote nothing (`git status`).
 */
import { execFileSync, spawn } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..');

export interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** Wall time from spawn to exit, ms. */
  ms: number;
  /** CPU time of the node process (user + system), ms; NaN when it did not report. */
  cpuMs: number;
}

export interface RunOptions {
  cwd?: string;
  env?: Record<string, string>;
  input?: Uint8Array;
  /** Called with each stderr chunk as it comes, and the child (to signal it). */
  onStderr?: (text: string, child: ReturnType<typeof spawn>) => void;
}

/** Runs `command` (a shell command line, as npm runs a script) with the CPU-time probe preloaded. */
export function runShell(command: string, options: RunOptions = {}): Promise<Run> {
  const cwd = options.cwd ?? root;
  const probe = join(root, 'test', 'project', 'support', 'cpu-time.mjs');
  const env = {
    ...process.env,
    PATH: `${join(cwd, 'node_modules', '.bin')}:${process.env['PATH'] ?? ''}`,
    NODE_OPTIONS: `--import ${probe}`,
    ...options.env,
  };
  const started = performance.now();
  const child = spawn('sh', ['-c', command], {
    cwd,
    env,
    stdio: [options.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe', 'pipe'],
  });
  if (options.input !== undefined) child.stdin?.end(options.input);
  let stdout = '';
  let stderr = '';
  let probed = '';
  child.stdout?.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr?.on('data', (c: Buffer) => {
    stderr += c.toString();
    options.onStderr?.(stderr, child);
  });
  (child.stdio[3] as NodeJS.ReadableStream | null)?.on('data', (c: Buffer) => (probed += c.toString()));
  return new Promise((done) =>
    child.once('close', (code, signal) => {
      const cpu = probed
        .split('\n')
        .filter((l) => l !== '')
        .map((l) => (JSON.parse(l) as { cpuMs: number }).cpuMs);
      done({
        code,
        signal,
        stdout,
        stderr,
        ms: performance.now() - started,
        cpuMs: cpu.length === 0 ? NaN : cpu.reduce((a, b) => a + b, 0),
      });
    }),
  );
}

/** Runs bin/<name>.mjs with `args` (each quoted for the shell). */
export function runBin(name: string, args: readonly string[], options: RunOptions = {}): Promise<Run> {
  const quoted = args.map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
  return runShell(`exec node bin/${name}.mjs ${quoted}`, { ...options, cwd: options.cwd ?? root });
}

export interface PackageJson {
  bin: Record<string, string>;
  scripts: Record<string, string>;
}

export function packageJson(dir = root): PackageJson {
  return JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as PackageJson;
}

/** The npm scripts that are the project's commands: they run a bin of bin/ (not the build helper run.mjs). */
export function commandScripts(pkg: PackageJson): Array<[name: string, command: string]> {
  return Object.entries(pkg.scripts).filter(([, command]) => /^node bin\/(?!run\.mjs)[\w-]+\.mjs\b/.test(command));
}

/** A scratch git repository of the working tree (see the module comment); returns its path. */
export function scratchCopy(): string {
  const dir = mkdtempSync(join(tmpdir(), 'dds-commands-'));
  const git = (cwd: string, ...args: string[]): string => execFileSync('git', args, { cwd, encoding: 'utf8' });
  const files = git(root, 'ls-files', '-z', '--cached', '--others', '--exclude-standard')
    .split('\0')
    .filter((f) => f !== '');
  for (const file of files) {
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    try {
      cpSync(join(root, file), join(dir, file));
    } catch (e) {
      // A file deleted in the working tree but still in the index is absent in the copy as well.
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    }
  }
  symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'));
  cpSync(join(root, 'build'), join(dir, 'build'), { recursive: true });
  // The copy's build is as new as its sources: no command rebuilds.
  const now = new Date();
  utimesSync(join(dir, 'build', '.tsbuildinfo'), now, now);
  git(dir, 'init', '-q');
  git(dir, 'add', '-A');
  git(dir, '-c', 'user.name=test', '-c', 'user.email=test@localhost', 'commit', '-q', '-m', 'scratch');
  return dir;
}

/** `git status --porcelain --ignored` of a scratch copy: every change, and every ignored file (dist/, *.db). */
export function gitStatus(dir: string): string {
  return execFileSync('git', ['status', '--porcelain', '--ignored'], { cwd: dir, encoding: 'utf8' });
}
