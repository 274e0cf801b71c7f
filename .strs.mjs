import { rollup } from 'rollup';
import { minify } from 'terser';
import config, { firmwareInputs } from './rollup.config.mjs';
const bundle = await rollup({ ...config, input: firmwareInputs.full, plugins: [...config.plugins] });
const out = (await bundle.generate({ format: 'es' })).output[0];
const r = await minify(out.code, { module: true, ecma: 2020 });
const code = r.code;
const strs = [...code.matchAll(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|`(?:[^`\\]|\\.)*`/g)].map(m=>m[0]);
const total = strs.reduce((a,s)=>a+s.length,0);
console.log('minified', code.length, 'strings', strs.length, 'bytes', total);
const long = strs.filter(s=>s.length>25).sort((a,b)=>b.length-a.length);
console.log(long.reduce((a,s)=>a+s.length,0), 'in', long.length, 'long strings');
for (const s of long.slice(0,80)) console.log(s.length, s.slice(0,140));
// identifiers: property names frequency
const props = {};
for (const m of code.matchAll(/\.([A-Za-z_$][\w$]{3,})/g)) props[m[1]] = (props[m[1]]||0)+1;
const pr = Object.entries(props).map(([k,v])=>[k,v,k.length*v]).sort((a,b)=>b[2]-a[2]);
console.log('property bytes', pr.reduce((a,x)=>a+x[2],0));
console.log(pr.slice(0,40).map(x=>x.join(':')).join(' '));
