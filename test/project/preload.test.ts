/**
 * The firmware's module is preloaded on a board (manifest.json platforms.esp32
 * `preload`): its top level runs at build time and what it makes lives in flash.
 * A plain object or a `let` made there can still change (XS keeps the change in
 * RAM), but a Map, Set, ArrayBuffer, typed array or DataView made there is
 * read-only on the board (the simulator threw "read only" on the first
 * `Map.set` when the record-name cache was made at load). This check reads every
 * module the firmware bundles (src/ and targets/moddable/) with the TypeScript
 * parser and fails on such a value made at module load: at top level or in a
 * static class field. They are made at first use instead.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

const root = resolve(dirname(new URL(import.meta.url).pathname), '..', '..', '..');
const READ_ONLY_IN_FLASH =
  /^(Map|Set|WeakMap|WeakSet|ArrayBuffer|DataView|(Ui|I)nt(8|16|32)Array|Uint8ClampedArray|Float(32|64)Array|Big(Ui|I)nt64Array)$/;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourceFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

/** `new X(...)` with X read-only in flash, anywhere in `node` but inside functions (those run later). */
function madeAtLoad(node: ts.Node, found: string[], file: ts.SourceFile): void {
  if (ts.isFunctionLike(node)) return;
  if (ts.isNewExpression(node) && ts.isIdentifier(node.expression) && READ_ONLY_IN_FLASH.test(node.expression.text)) {
    const { line } = file.getLineAndCharacterOfPosition(node.getStart(file));
    found.push(`${relative(root, file.fileName)}:${line + 1}: new ${node.expression.text}`);
  }
  node.forEachChild((child) => madeAtLoad(child, found, file));
}

/** What one module makes at load: its top-level statements and its classes' static fields. */
function scan(path: string, text: string): string[] {
  const file = ts.createSourceFile(path, text, ts.ScriptTarget.ES2022, true);
  const found: string[] = [];
  for (const statement of file.statements) {
    if (ts.isClassDeclaration(statement)) {
      for (const member of statement.members)
        if (ts.isPropertyDeclaration(member) && ts.getCombinedModifierFlags(member) & ts.ModifierFlags.Static)
          madeAtLoad(member, found, file);
    } else madeAtLoad(statement, found, file);
  }
  return found;
}

describe('the firmware module can be preloaded', () => {
  it('makes no Map, Set, ArrayBuffer, typed array or DataView at module load (read-only in flash)', () => {
    const files = [...sourceFiles(join(root, 'src')), ...sourceFiles(join(root, 'targets', 'moddable'))];
    assert.ok(files.length > 50, `only ${files.length} files found`);
    assert.deepEqual(
      files.flatMap((f) => scan(f, readFileSync(f, 'utf8'))),
      [],
    );
  });

  it('the check finds one at top level and in a static field, and not inside a function', () => {
    const probe = join(root, 'build', 'preload-probe', 'probe.ts');
    const text = [
      'const cache = { s: new Map<string, string>() };',
      'class C { static buffer = new Uint8Array(4); field = new Set(); }',
      'export function later() { return new DataView(new ArrayBuffer(8)); }',
      'export { C, cache };',
    ].join('\n');
    assert.deepEqual(scan(probe, text), [
      'build/preload-probe/probe.ts:1: new Map',
      'build/preload-probe/probe.ts:2: new Uint8Array',
    ]);
  });
});
