import { rollup } from 'rollup';
import { minify } from 'terser';
const config = (await import(process.cwd() + '/rollup.config.mjs')).default;
const bundle = await rollup({ ...config, input: 'targets/moddable/main.ts', plugins: [...config.plugins] });
const out = (await bundle.generate({ format: 'es' })).output[0];
for (const [id, m] of Object.entries(out.modules)) {
  if (!id.includes(process.argv[2])) continue;
  const r = await minify(m.code, { ecma: 2020, compress: { toplevel: false }, mangle: { toplevel: true } });
  console.log(id, r.code.length);
  console.log(r.code);
}
