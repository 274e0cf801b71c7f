/**
 * Building the firmware with the Moddable SDK's tools and running it in the
 * desktop simulator, for the firmware tests (docs/moddable.md and docs/tls.md). Node only.
 * `MODDABLE` must point to an SDK with its Linux tools built; `binDir` is
 * undefined otherwise and the tests skip.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

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
 * `mcconfig -d -m -p lin -t build` (a release build, without `-d`, when `debug` is false) and `name=value`
 * settings into `outDir`; returns the path of the simulator's mc.so.
 */
export async function buildFirmware(
  outDir: string,
  settings: string[],
  manifest = join(root, 'manifest.json'),
  tree = root,
  debug = true,
): Promise<string> {
  await run(
    process.execPath,
    [join(root, 'node_modules', 'rollup', 'dist', 'bin', 'rollup'), '-c', 'rollup.config.mjs'],
    tree,
  );
  return buildSim(outDir, settings, manifest, debug);
}

/**
 * Builds `manifest` as it is (no bundling) for lin with `mcconfig -d -m -p lin -t build` (without `-d`, a
 * release build, when `debug` is false) and `name=value` settings into `outDir`; returns the path of the
 * simulator's mc.so.
 */
export async function buildSim(outDir: string, settings: string[], manifest: string, debug = true): Promise<string> {
  mkdirSync(outDir, { recursive: true });
  const flags = debug ? ['-d', '-m'] : ['-m'];
  await run('mcconfig', [...flags, '-p', 'lin', '-t', 'build', '-o', outDir, manifest, ...settings]);
  // mcconfig names the build after the manifest's directory.
  return join(outDir, 'bin', 'lin', 'mc', debug ? 'debug' : 'release', basename(dirname(manifest)), 'mc.so');
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

export { SimRun } from './sim-run.js';
