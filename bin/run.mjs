// The project's commands run the built code: build once (at install: `prepare`), then each command
// checks in a few milliseconds whether a source is newer than the last build and, only then, rebuilds
// incrementally (tsc --incremental; build/ is never wiped under a running command). Then it imports the
// command's module, which reads process.argv as usual.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync, utimesSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { progress } from './progress.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const stamp = join(root, 'build', '.tsbuildinfo');
const sources = ['src', 'targets/node', 'host-sim', 'test', 'bench'];
const configs = ['tsconfig.json', 'tsconfig.base.json'];

/** The newest modification time (ms) of the TypeScript sources and the compiler configuration. */
function newestSource() {
  let newest = 0;
  const visit = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) visit(path);
      else if (entry.name.endsWith('.ts')) newest = Math.max(newest, statSync(path).mtimeMs);
    }
  };
  for (const dir of sources) if (existsSync(join(root, dir))) visit(join(root, dir));
  for (const file of configs)
    if (existsSync(join(root, file))) newest = Math.max(newest, statSync(join(root, file)).mtimeMs);
  return newest;
}

/** Runs `node <args>` in the project, its output on this process's; resolves with the exit status. */
function node(args) {
  const child = spawn(process.execPath, args, { cwd: root, stdio: ['ignore', 'inherit', 'inherit'] });
  return new Promise((resolve) => child.once('close', resolve));
}

/**
 * Rebuilds incrementally when a source is newer than the last build (and builds the dashboard when it was
 * never built); a no-op in an installed copy and when everything is up to date, so that `prepare` (which
 * `npm install` runs, and `npx dds-agent`, which installs the project into npx's cache) costs nothing twice.
 */
export async function ensureBuilt() {
  if (!existsSync(join(root, 'src'))) return;
  const dashboard = join(root, 'build', 'dashboard', 'index.html');
  if (existsSync(stamp) && statSync(stamp).mtimeMs >= newestSource() && existsSync(dashboard)) return;
  // On a terminal, the wait shows its progress (a first build takes a while on a small machine).
  const what = existsSync(stamp) ? 'building (a source changed)' : 'building (the first time: a minute or two)';
  const done = progress(what);
  if (process.stderr.isTTY !== true) process.stderr.write(`${what}...\n`);
  const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
  const args = [tsc, '-p', join(root, 'tsconfig.json'), '--incremental', '--tsBuildInfoFile', stamp];
  let status = await node(args);
  if (status === 0 && !existsSync(dashboard)) status = await node([join(root, 'host-sim', 'dashboard', 'build.mjs')]);
  done(status === 0 ? 'built' : undefined);
  if (status !== 0) {
    process.stderr.write('the build failed (above); nothing was run\n');
    process.exit(status ?? 1);
  }
  // tsc leaves its build info alone when nothing changed in the output: mark the check as done.
  const now = new Date();
  utimesSync(stamp, now, now);
}

/**
 * Builds when needed, then runs `build/<entry>` in this process. `--help` runs the build there is without
 * rebuilding first, so that it answers at once even right after a source changed (or a fresh install).
 */
export async function run(entry) {
  const built = join(root, 'build', entry);
  const help = process.argv.includes('--help') || process.argv.includes('-h');
  if (!(help && existsSync(built))) await ensureBuilt();
  await import(pathToFileURL(built).href);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  // `node bin/run.mjs`: only the build (the benchmarks' scripts use it before their own runner).
  await ensureBuilt();
}
