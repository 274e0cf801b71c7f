// The size budget of the firmware bundle (`npm run size:check`, part of
// `npm test`): bundles rollup.config.mjs in memory, minifies it with terser as a
// release build would, prints the sizes and checks them.
//
// Two thresholds. The aim is the whole agent under 40 KiB minified
// (smaller than the official SignalR client alone, 47.7 KB); it is printed with
// the margin. The hard budget fails the run: it catches a regression (a
// dependency pulled into the bundle, a table duplicated) without failing CI
// merely because the agent's planned parts land. Where the Moddable SDK's xsc
// is present (MODDABLE set), the bundle is also compiled to XS bytecode and the
// size of what goes to flash is printed. Last line: one JSON object.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { rollup } from 'rollup';
import terser from '@rollup/plugin-terser';
import config from '../rollup.config.mjs';

const AIM_BYTES = 40 * 1024;
const BUDGET_BYTES = 110 * 1024;

const bundle = await rollup({ ...config, plugins: [...config.plugins] });
const plain = (await bundle.generate({ format: 'es' })).output[0];
const minified = (await bundle.generate({ format: 'es', plugins: [terser({ module: true, ecma: 2020 })] })).output[0];
await bundle.close();

/** Size of the XS bytecode of the bundle (no debug information), when xsc is available. */
function xsBytecodeBytes(code) {
  const moddable = process.env.MODDABLE;
  if (moddable === undefined) return undefined;
  const xsc = ['release', 'debug'].map((g) => join(moddable, 'build', 'bin', 'lin', g, 'xsc')).find(existsSync);
  if (xsc === undefined) return undefined;
  const dir = mkdtempSync(join(tmpdir(), 'size-check-'));
  try {
    writeFileSync(join(dir, 'main.js'), code);
    execFileSync(xsc, ['-e', '-o', dir, join(dir, 'main.js')], { stdio: 'pipe' });
    return statSync(join(dir, 'main.xsb')).size;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const figures = {
  modules: Object.keys(plain.modules).length,
  bundleBytes: Buffer.byteLength(plain.code),
  minifiedBytes: Buffer.byteLength(minified.code),
  minifiedGzipBytes: gzipSync(minified.code).length,
  xsBytecodeBytes: xsBytecodeBytes(plain.code),
  aimBytes: AIM_BYTES,
  budgetBytes: BUDGET_BYTES,
  external: plain.imports,
};
const kib = (n) => `${(n / 1024).toFixed(1)} KiB`;
const margin = AIM_BYTES - figures.minifiedBytes;
console.log(`firmware bundle: ${figures.modules} modules, ${kib(figures.bundleBytes)} plain`);
console.log(`minified: ${kib(figures.minifiedBytes)} (gzip ${kib(figures.minifiedGzipBytes)})`);
console.log(`aim ${kib(AIM_BYTES)}: ${margin >= 0 ? `met, ${kib(margin)} to spare` : `missed by ${kib(-margin)}`}`);
console.log(`budget ${kib(BUDGET_BYTES)}: ${((100 * figures.minifiedBytes) / BUDGET_BYTES).toFixed(0)}% used`);
console.log(
  figures.xsBytecodeBytes === undefined
    ? 'XS bytecode: not measured (set MODDABLE to a Moddable SDK with its tools built)'
    : `XS bytecode (xsc, no debug info): ${kib(figures.xsBytecodeBytes)}`,
);
console.log(`external (linked by mcconfig): ${figures.external.join(', ')}`);
console.log(JSON.stringify(figures));
if (figures.minifiedBytes > BUDGET_BYTES) {
  console.error(`size:check: ${figures.minifiedBytes} bytes minified is over the ${BUDGET_BYTES}-byte budget`);
  process.exit(1);
}
