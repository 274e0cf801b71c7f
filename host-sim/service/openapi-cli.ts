/**
 * Writes the service's OpenAPI 3.1 document, generated from the route
 * declarations (http/routes.ts), to docs/openapi.json (or the path given):
 *   npm run openapi [-- FILE]
 * A test asserts the committed file equals the generated document.
 */
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openApiText } from './http/openapi.js';

// build/host-sim/service -> the source tree's docs/.
const target =
  process.argv[2] ?? join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'docs', 'openapi.json');
writeFileSync(target, openApiText());
process.stdout.write(`openapi: wrote ${target}\n`);
