/**
 * The architecture's import table and its checker. Imports are read with the
 * TypeScript compiler's parser (static, type-only, re-exports, `import()`,
 * `import x = require()`, `import('x').T` types, however they are split over
 * lines), each resolved to the part of the project it lands in, and judged by
 * the rule of the importing file's part:
 *
 *   core (src/)                 imports nothing outside src/
 *   Moddable target             no Node module or npm package, no Node target, no simulator
 *   Node target                 no simulator, no Moddable target
 *   service (host-sim/service)  no agent code (src/, targets/), bar the shared SignalR record codec
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

export type Part = 'core' | 'moddable' | 'node' | 'service' | 'simulator' | 'elsewhere';

export interface Import {
  file: string;
  line: number;
  specifier: string;
}

/** Every module specifier of a source text, with its 1-based line. */
export function importsOf(file: string, text: string): Import[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true, ts.ScriptKind.TS);
  const found: Import[] = [];
  const add = (node: ts.Node): void => {
    if (!ts.isStringLiteralLike(node)) return;
    const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
    found.push({ file, line, specifier: node.text });
  };
  const visit = (node: ts.Node): void => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier !== undefined) {
      add(node.moduleSpecifier);
    } else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
      add(node.moduleReference.expression);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [argument] = node.arguments;
      if (argument !== undefined) add(argument);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
      add(node.argument.literal);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The part of the project a path (absolute) belongs to. */
export function partOf(root: string, path: string): Part {
  const rel = relative(root, path).split('\\').join('/');
  if (rel.startsWith('src/')) return 'core';
  if (rel.startsWith('targets/moddable/')) return 'moddable';
  if (rel.startsWith('targets/node/')) return 'node';
  if (rel.startsWith('host-sim/service/')) return 'service';
  if (rel.startsWith('host-sim/')) return 'simulator';
  return 'elsewhere';
}

/** The files of the shared SignalR record codec, which the service may import. */
export const sharedCodec = ['src/signalr/record-codec.ts'];

/** The module names the Moddable SDK provides (declared by @moddable/typings). */
export function moddableModules(root: string): Set<string> {
  const names = new Set<string>();
  const visit = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) visit(path);
      else if (entry.name.endsWith('.d.ts')) {
        for (const m of readFileSync(path, 'utf8').matchAll(/declare module\s+["']([^"']+)["']/g)) names.add(m[1]!);
      }
    }
  };
  visit(join(root, 'node_modules', '@moddable', 'typings'));
  // SDK modules the typings lack, declared by the Moddable target itself (modules.d.ts, sdk-ota.d.ts).
  visit(join(root, 'targets', 'moddable'));
  return names;
}

export interface Judge {
  root: string;
  moddable: Set<string>;
}

/** Why an import breaks its file's rule, or undefined when it keeps it. */
export function violation(judge: Judge, imp: Import): string | undefined {
  const from = partOf(judge.root, imp.file);
  const spec = imp.specifier;
  const relativeSpec = spec.startsWith('.');
  const target = relativeSpec ? resolve(dirname(imp.file), spec).replace(/\.js$/, '.ts') : undefined;
  const to = target === undefined ? undefined : partOf(judge.root, target);
  switch (from) {
    case 'core':
      return to === 'core' ? undefined : `the core imports nothing outside src/`;
    case 'moddable':
      if (to !== undefined) {
        return to === 'core' || to === 'moddable' ? undefined : `the Moddable target imports no ${to} code`;
      }
      if (spec.startsWith('node:')) return 'the Moddable target imports no Node module';
      return judge.moddable.has(spec) ? undefined : 'the Moddable target imports only Moddable SDK modules';
    case 'node':
      if (to === 'simulator' || to === 'service') return 'the Node target imports no simulator';
      return to === 'moddable' ? 'the Node target imports no Moddable target' : undefined;
    case 'service': {
      if (to !== 'core' && to !== 'node' && to !== 'moddable') return undefined;
      const rel = relative(judge.root, target!).split('\\').join('/');
      return sharedCodec.includes(rel) ? undefined : 'the service imports no agent code, bar the shared record codec';
    }
    default:
      return undefined;
  }
}

/** Every TypeScript file under `dir` (absolute paths). */
export function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourceFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

/** The breaches of every file under `dirs`, as `path:line imports 'x': rule`. */
export function breaches(judge: Judge, dirs: readonly string[]): { files: number; found: string[] } {
  const files = dirs.flatMap((d) => sourceFiles(join(judge.root, d)));
  const found: string[] = [];
  for (const file of files) {
    for (const imp of importsOf(file, readFileSync(file, 'utf8'))) {
      const why = violation(judge, imp);
      if (why !== undefined) found.push(`${relative(judge.root, file)}:${imp.line} imports '${imp.specifier}': ${why}`);
    }
  }
  return { files: files.length, found };
}
