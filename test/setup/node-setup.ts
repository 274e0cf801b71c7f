/**
 * Mocha root set-up on Node: installs the fixture reader of test/support/fixtures.ts.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'test', 'fixtures');

(globalThis as { __readFixture?: (path: string) => string }).__readFixture = (path) =>
  readFileSync(join(root, path), 'utf8');
