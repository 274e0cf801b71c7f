// The size budget of the firmware bundle (`npm run size:check`, part of
// `npm test`): bundles rollup.config.mjs in memory, minifies it with terser as a
// release build would, prints the sizes and fails when the minified agent is
// over the budget (issue 7: under 40 KB, smaller than the official SignalR
// client alone at 47.7 KB). Last line: one JSON object of the figures.
import { gzipSync } from 'node:zlib';
import { rollup } from 'rollup';
import terser from '@rollup/plugin-terser';
import config from '../rollup.config.mjs';

const BUDGET_BYTES = 40 * 1024;

const bundle = await rollup({ ...config, plugins: [...config.plugins] });
const plain = (await bundle.generate({ format: 'es' })).output[0];
const minified = (await bundle.generate({ format: 'es', plugins: [terser({ module: true, ecma: 2020 })] })).output[0];
await bundle.close();

const figures = {
  modules: Object.keys(plain.modules).length,
  bundleBytes: Buffer.byteLength(plain.code),
  minifiedBytes: Buffer.byteLength(minified.code),
  minifiedGzipBytes: gzipSync(minified.code).length,
  budgetBytes: BUDGET_BYTES,
  external: plain.imports,
};
const kib = (n) => `${(n / 1024).toFixed(1)} KiB`;
console.log(`firmware bundle: ${figures.modules} modules, ${kib(figures.bundleBytes)} plain`);
console.log(
  `minified: ${kib(figures.minifiedBytes)} (gzip ${kib(figures.minifiedGzipBytes)}); budget ${kib(BUDGET_BYTES)}: ${(
    (100 * figures.minifiedBytes) /
    BUDGET_BYTES
  ).toFixed(0)}% used`,
);
console.log(`external (linked by mcconfig): ${figures.external.join(', ')}`);
console.log(JSON.stringify(figures));
if (figures.minifiedBytes > BUDGET_BYTES) {
  console.error(`size:check: ${figures.minifiedBytes} bytes is over the ${BUDGET_BYTES}-byte budget`);
  process.exit(1);
}
