import { rollup } from 'rollup';
import { minify } from 'terser';
import config, { firmwareInputs } from './rollup.config.mjs';
const which = process.argv[2] ?? 'full';
const bundle = await rollup({ ...config, input: firmwareInputs[which], plugins: [...config.plugins] });
const out = (await bundle.generate({ format: 'es' })).output[0];
const rows = [];
for (const [id, m] of Object.entries(out.modules)) {
  if (!m.code) continue;
  const r = await minify(m.code, { ecma: 2020, compress: { toplevel: false }, mangle: { toplevel: true } });
  rows.push([r.code.length, id.replace(process.cwd() + '/', '')]);
}
rows.sort((a, b) => b[0] - a[0]);
for (const [n, id] of rows) console.log(String(n).padStart(6), id);
