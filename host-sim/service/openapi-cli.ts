/**
 * `npm run openapi`: the service's OpenAPI 3.1 document, generated from the
 * route declarations (http/routes.ts). It goes to standard output unless
 * `--out FILE` names a file, so that no default overwrites the committed
 * docs/openapi.json unasked; `--check FILE` compares a file with the
 * generated document (exit 1 when it is stale). A test asserts the committed
 * file equals the generated document.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { readCommandLine, runCommand } from '../command-line.js';
import { openApiText } from './http/openapi.js';

const usage = `usage: npm run openapi -- [--out FILE | --check FILE]
The Device Data Service's OpenAPI 3.1 document, generated from the service's route declarations, on standard
output. The committed copy is docs/openapi.json: refresh it with --out docs/openapi.json.
  --out FILE    write the document to FILE instead of standard output
  --check FILE  compare FILE with the generated document; exit 1 when it differs
  --help        print this help`;

async function main(): Promise<number> {
  const { values } = readCommandLine(process.argv.slice(2), {
    out: { type: 'string' },
    check: { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  });
  if (values.help === true) {
    process.stdout.write(usage + '\n');
    return 0;
  }
  const text = openApiText();
  if (values.check !== undefined) {
    let current: string;
    try {
      current = readFileSync(values.check, 'utf8');
    } catch (e) {
      throw new Error(`--check ${values.check}: ${(e as NodeJS.ErrnoException).code ?? String(e)}`);
    }
    if (current === text) return 0;
    throw new Error(`--check ${values.check}: differs from the generated document (refresh: --out ${values.check})`);
  }
  if (values.out === undefined) {
    process.stdout.write(text);
    return 0;
  }
  try {
    writeFileSync(values.out, text);
  } catch (e) {
    throw new Error(`--out ${values.out}: ${(e as NodeJS.ErrnoException).code ?? String(e)}`);
  }
  process.stderr.write(`openapi: wrote ${values.out}\n`);
  return 0;
}

runCommand({ name: 'npm run openapi --', prefix: 'openapi' }, main);
