/**
 * The set-up the simulator suites share: in a mocha `describe`, skips the suite with its reason printed when
 * `skip` says why it cannot run here, else makes one `mkdtemp` folder for the suite (named after `prefix`) and
 * removes it after. Returns the folder's getter (empty until the suite starts).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export function suiteScratch(prefix: string, skip: string | undefined): () => string {
  let scratch = '';
  before(function () {
    if (skip !== undefined) {
      console.log(`      skipped: ${skip}`);
      this.skip();
    }
    scratch = mkdtempSync(join(tmpdir(), prefix));
  });
  after(() => {
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });
  return () => scratch;
}
