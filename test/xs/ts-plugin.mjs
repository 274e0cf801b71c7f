// A rollup plugin that bundles the project's TypeScript sources as they are,
// without a build step: `./x.js` imports resolve to `./x.ts` (NodeNext style) and
// each file is transpiled on its own (isolatedModules; types are checked by
// `npm run typecheck`, not here). Used by the XS test runner and bench/xs.mjs.
import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import ts from 'typescript';

/** @returns {import('rollup').Plugin} */
export function typescriptTranspile() {
  return {
    name: 'typescript-transpile',
    resolveId(source, importer) {
      if (importer === undefined || !source.startsWith('.') || !source.endsWith('.js')) return null;
      const candidate = resolve(dirname(importer), source.slice(0, -3) + '.ts');
      return existsSync(candidate) ? candidate : null;
    },
    transform(code, id) {
      if (!id.endsWith('.ts')) return null;
      const out = ts.transpileModule(code, {
        fileName: id,
        compilerOptions: {
          target: ts.ScriptTarget.ES2022,
          module: ts.ModuleKind.ESNext,
          verbatimModuleSyntax: true,
          sourceMap: true,
        },
      });
      return { code: out.outputText, map: out.sourceMapText ? JSON.parse(out.sourceMapText) : null };
    },
  };
}
