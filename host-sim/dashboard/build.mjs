// Builds the web dashboard into build/dashboard (run by `npm run build` after tsc):
// host-sim/dashboard/web/main.ts and what it imports (uPlot, src/errno.ts) bundled by
// the project's rollup into one minified ES module, the styles (uPlot's and ours) into
// one stylesheet, both named by their content hash, and index.html pointing at them.
// Nothing is fetched at run time from anywhere but the service itself.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { nodeResolve } from '@rollup/plugin-node-resolve';
import terser from '@rollup/plugin-terser';
import { rollup } from 'rollup';
import { typescriptTranspile } from '../../test/xs/ts-plugin.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const web = join(root, 'host-sim', 'dashboard', 'web');
const out = join(root, 'build', 'dashboard');
const assets = join(out, 'assets');
const hash = (text) => createHash('sha256').update(text).digest('hex').slice(0, 10);

const started = Date.now();
mkdirSync(assets, { recursive: true });
const bundle = await rollup({
  input: join(web, 'main.ts'),
  plugins: [typescriptTranspile(), nodeResolve({ browser: true }), terser({ format: { comments: false } })],
});
const { output } = await bundle.generate({ format: 'es', entryFileNames: 'app-[hash].js', sourcemap: false });
await bundle.close();
const chunk = output.find((o) => o.type === 'chunk' && o.isEntry);
writeFileSync(join(assets, chunk.fileName), chunk.code);

const css = [
  readFileSync(join(root, 'node_modules', 'uplot', 'dist', 'uPlot.min.css'), 'utf8'),
  readFileSync(join(web, 'styles.css'), 'utf8'),
].join('\n');
const cssName = `app-${hash(css)}.css`;
writeFileSync(join(assets, cssName), css);

const html = readFileSync(join(web, 'index.html'), 'utf8')
  .replace('%CSS%', `/dashboard/${cssName}`)
  .replace('%JS%', `/dashboard/${chunk.fileName}`);
writeFileSync(join(out, 'index.html'), html);
const bytes = Buffer.byteLength(chunk.code) + Buffer.byteLength(css) + Buffer.byteLength(html);
process.stdout.write(
  `dashboard: ${chunk.fileName} ${Buffer.byteLength(chunk.code)} B, ${cssName} ${Buffer.byteLength(css)} B, ` +
    `index.html ${Buffer.byteLength(html)} B (${bytes} B) in ${Date.now() - started} ms\n`,
);
