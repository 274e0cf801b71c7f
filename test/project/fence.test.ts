/**
 * The core's compile-time fence (STYLE.md, practice 2), tested: host globals do
 * not type-check under tsconfig.core.json, and nothing XS lacks is used. The
 * import table of the whole architecture is architecture.test.ts.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

const root = resolve(dirname(new URL(import.meta.url).pathname), '..', '..', '..');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourceFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

describe('the core fence', () => {
  it('rejects host globals under tsconfig.core.json', () => {
    const config = ts.getParsedCommandLineOfConfigFile(
      join(root, 'tsconfig.core.json'),
      {},
      {
        ...ts.sys,
        onUnRecoverableConfigFileDiagnostic: (d) => assert.fail(ts.flattenDiagnosticMessageText(d.messageText, '\n')),
      },
    );
    assert.ok(config);
    const probe = join(root, 'src', '__fence_probe__.ts');
    const globals = ['setTimeout', 'setInterval', 'fetch', 'Buffer', 'console', 'process', 'TextEncoder', 'URL'];
    const text = globals.map((g) => `export const use_${g} = typeof ${g};`).join('\n');
    const host = ts.createCompilerHost(config.options);
    const read = host.readFile.bind(host);
    host.readFile = (file) => (resolve(file) === probe ? text : read(file));
    const exists = host.fileExists.bind(host);
    host.fileExists = (file) => resolve(file) === probe || exists(file);
    const program = ts.createProgram([probe], config.options, host);
    const messages = ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    for (const g of globals) {
      assert.ok(
        messages.some((m) => m.includes(`'${g}'`)),
        `${g} type-checks inside the fence; diagnostics: ${messages.join(' | ')}`,
      );
    }
  });

  it('uses nothing the fence cannot catch but XS lacks (Intl, locale formatting) or that reads time behind the clock', () => {
    const offenders: string[] = [];
    for (const file of sourceFiles(join(root, 'src'))) {
      readFileSync(file, 'utf8')
        .split('\n')
        .forEach((line, i) => {
          const code = line.replace(/\/\/.*$/, '');
          if (/\bIntl\b|\.toLocale\w*\(|\bDate\.now\(|new Date\(\)/.test(code)) {
            offenders.push(`${relative(root, file)}:${i + 1}: ${line.trim()}`);
          }
        });
    }
    assert.deepEqual(offenders, []);
  });
});
