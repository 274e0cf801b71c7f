/**
 * The size budget of the hub client (STYLE.md practice 15): the client alone
 * (entry src/signalr/hub-client.ts, compiled JS in build/) bundled by rollup
 * and minified by @rollup/plugin-terser, next to the official
 * `@microsoft/signalr` browser bundle `signalr.min.js`; gzip sizes beside.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import terserPlugin, { type Options as TerserOptions } from '@rollup/plugin-terser';
import { rollup, type Plugin } from 'rollup';

// The plugin's types are read as CommonJS under NodeNext; at run time the ESM default is the factory.
const terserModule = terserPlugin as unknown as { default?: (o?: TerserOptions) => Plugin };
const terser = terserModule.default ?? (terserPlugin as unknown as (o?: TerserOptions) => Plugin);

export interface SizeResult {
  clientMinBytes: number;
  clientGzipBytes: number;
  /** Without the core modules the agent ships anyway (errors, wire, fields, backoff). */
  clientMarginalMinBytes: number;
  officialMinBytes: number;
  officialGzipBytes: number;
  ratio: number;
}

const buildRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const shared = ['src/errors.js', 'src/wire.js', 'src/reader.js', 'src/retry/backoff.js'].map((p) => join(buildRoot, p));

async function bundle(external: readonly string[]): Promise<string> {
  const build = await rollup({
    input: join(buildRoot, 'src', 'signalr', 'hub-client.js'),
    external: (id, importer) => importer !== undefined && external.includes(join(dirname(importer), id)),
    plugins: [terser({ module: true, ecma: 2020, compress: { passes: 2 } })],
  });
  const { output } = await build.generate({ format: 'es' });
  await build.close();
  return output[0].code;
}

export async function measureSize(): Promise<SizeResult> {
  const client = await bundle([]);
  const marginal = await bundle(shared);
  const require = createRequire(import.meta.url);
  const official = readFileSync(
    join(dirname(require.resolve('@microsoft/signalr/package.json')), 'dist', 'browser', 'signalr.min.js'),
  );
  const clientMinBytes = Buffer.byteLength(client);
  return {
    clientMinBytes,
    clientGzipBytes: gzipSync(client).length,
    clientMarginalMinBytes: Buffer.byteLength(marginal),
    officialMinBytes: official.length,
    officialGzipBytes: gzipSync(official).length,
    ratio: Math.round((official.length / clientMinBytes) * 10) / 10,
  };
}
