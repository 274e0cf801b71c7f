// The whole image's XS code, for `npm run size:check` when MODDABLE is set: the
// firmware bundle plus every SDK module the manifest links, as compiled by the
// SDK's own build (`mcconfig -m -p lin -t build`, release: xsc without debug
// information). A module moved from our bundle into the SDK's side would show
// here, where the bundle's budget cannot see it. The build is the simulator's
// (lin): an ESP32 image links the same JavaScript modules but its own io
// modules (lin links the manifest's simulated pins) and no `screen`.
//
// The build lives in build/size-image/ and is kept between runs: mcconfig's
// make then recompiles only the bundle (the first build compiles the SDK's C
// for mcsim, minutes on a small machine). Without MODDABLE, or without
// mcconfig under it, `imageCode` says why instead.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { basename, delimiter, join, relative } from 'node:path';

/** Why the image cannot be built here, or undefined. */
function missing() {
  const moddable = process.env.MODDABLE;
  if (moddable === undefined) return 'MODDABLE is not set';
  if (!['release', 'debug'].some((g) => existsSync(join(moddable, 'build', 'bin', 'lin', g, 'mcconfig'))))
    return `no mcconfig under ${moddable}/build/bin/lin`;
  return undefined;
}

/** The root manifest with the bundle written beside it and its relative module paths made absolute. */
function writeManifest(root, dir, code) {
  writeFileSync(join(dir, 'main.js'), code);
  const manifest = JSON.parse(readFileSync(join(root, 'manifest.json'), 'utf8'));
  manifest.modules = { '*': [join(dir, 'main')] };
  for (const platform of Object.values(manifest.platforms ?? {}))
    for (const [name, path] of Object.entries(platform.modules ?? {}))
      if (path.startsWith('./')) platform.modules[name] = join(root, path);
  writeFileSync(join(dir, 'manifest.json'), JSON.stringify(manifest, null, 1));
  return join(dir, 'manifest.json');
}

function findFiles(dir, name) {
  const found = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) found.push(...findFiles(path, name));
    else if (entry.name === name) found.push(path);
  }
  return found;
}

/**
 * Builds the image of `code` (the full firmware bundle) and returns its XS code:
 * `{ totalBytes, oursBytes, sdkBytes, modules: [{ module, bytes, source, ours }] }`,
 * or `{ skipped: reason }`.
 */
export function imageCode(root, code) {
  const why = missing();
  if (why !== undefined) return { skipped: why };
  const moddable = process.env.MODDABLE;
  const dir = join(root, 'build', 'size-image');
  mkdirSync(join(dir, 'out'), { recursive: true });
  const manifest = writeManifest(root, dir, code);
  const bin = ['release', 'debug'].map((g) => join(moddable, 'build', 'bin', 'lin', g)).find(existsSync);
  try {
    execFileSync('mcconfig', ['-m', '-p', 'lin', '-t', 'build', '-o', join(dir, 'out'), manifest], {
      cwd: dir,
      env: { ...process.env, PATH: `${bin}${delimiter}${process.env.PATH}` },
      stdio: 'pipe',
      maxBuffer: 64 << 20,
    });
  } catch (e) {
    throw new Error(`size:check: mcconfig failed: ${String(e.stderr ?? e.message).slice(-2000)}`);
  }
  // mcconfig names the build after the manifest's folder; its makefile says where each module comes from.
  const [makefile] = findFiles(join(dir, 'out', 'tmp', 'lin'), 'makefile').filter((f) =>
    f.includes(`${join('release', basename(dir))}`),
  );
  if (makefile === undefined) throw new Error(`size:check: no makefile of the image build under ${dir}/out`);
  const modulesDir = join(makefile, '..', 'modules');
  const sources = new Map();
  for (const m of readFileSync(makefile, 'utf8').matchAll(/^\$\(MODULES_DIR\)\/(\S+)\.xsb: (\S+)/gm))
    sources.set(m[1], m[2]);
  const modules = [...sources].map(([module, source]) => ({
    module,
    bytes: statSync(join(modulesDir, `${module}.xsb`)).size,
    source: source.startsWith(moddable) ? `$(MODDABLE)/${relative(moddable, source)}` : relative(root, source),
    ours: !source.startsWith(moddable),
  }));
  modules.sort((a, b) => b.bytes - a.bytes);
  const sum = (list) => list.reduce((n, m) => n + m.bytes, 0);
  const ours = modules.filter((m) => m.ours);
  return { totalBytes: sum(modules), oursBytes: sum(ours), sdkBytes: sum(modules) - sum(ours), modules };
}
