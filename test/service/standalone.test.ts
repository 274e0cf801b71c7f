/**
 * The service stands alone: no module under host-sim/service imports the
 * agent's core (src/) or its targets, so the service's reading of the
 * specification is its own and a misreading on either side shows end to end.
 */
import { strict as assert } from 'node:assert';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { repoRoot } from './helpers.js';

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sources(path);
    return e.name.endsWith('.ts') ? [path] : [];
  });
}

describe('service: stands alone', () => {
  it('imports nothing from src/ or targets/', () => {
    const serviceDir = join(repoRoot, 'host-sim', 'service');
    const files = sources(serviceDir);
    assert.ok(files.length > 20, `expected the service sources, found ${files.length}`);
    const offending: string[] = [];
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      for (const m of text.matchAll(/from\s+'([^']+)'/g)) {
        const spec = m[1] as string;
        if (!spec.startsWith('.')) continue;
        const target = relative(repoRoot, resolve(file, '..', spec));
        if (target.startsWith('src') || target.startsWith('targets')) {
          offending.push(`${relative(repoRoot, file)} -> ${spec}`);
        }
      }
    }
    assert.deepEqual(offending, []);
  });
});
