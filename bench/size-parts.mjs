// Per-part sizes of a firmware bundle, for `npm run size:check`. A part is a
// folder of the core (src/signalr, src/modbus, ...; files directly under src/
// count as `src`) or the Moddable adapters (targets/moddable). Each part's code
// as rollup rendered it in the bundle (after tree-shaking) is minified on its own
// with the same terser options as the whole bundle, keeping its top-level
// declarations (other parts use them) but mangling their names as the whole
// build does. The parts' sum is therefore close to, not equal to, the whole
// minified bundle; both are printed.
import { relative, sep } from 'node:path';
import { minify } from 'terser';

/** The part a module belongs to, from its path relative to the project root. */
export function partOf(root, id) {
  const path = relative(root, id).split(sep);
  if (path[0] === 'src') return path.length > 2 ? path[1] : 'src';
  if (path[0] === 'targets' && path[1] === 'moddable') return 'moddable';
  return path.slice(0, 2).join('/');
}

/**
 * Minified bytes per part of a rollup output chunk (`chunk.modules`), largest
 * first: [{ part, modules, minifiedBytes }].
 */
export async function partSizes(root, chunk) {
  const parts = new Map();
  for (const [id, module] of Object.entries(chunk.modules)) {
    if (module.code === null || module.code.length === 0) continue;
    const part = partOf(root, id);
    const entry = parts.get(part) ?? { part, modules: 0, code: [] };
    entry.modules++;
    entry.code.push(module.code);
    parts.set(part, entry);
  }
  const sizes = [];
  for (const { part, modules, code } of parts.values()) {
    const out = await minify(code.join('\n'), {
      // Not `module: true`: it turns on compress.toplevel, which would drop the
      // declarations that only other parts use.
      ecma: 2020,
      compress: { toplevel: false },
      mangle: { toplevel: true },
    });
    if (out.code === undefined) throw new Error(`size:check: terser gave no code for part ${part}`);
    sizes.push({ part, modules, minifiedBytes: Buffer.byteLength(out.code) });
  }
  return sizes.sort((a, b) => b.minifiedBytes - a.minifiedBytes);
}
