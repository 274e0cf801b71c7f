/**
 * The XS test runner's own test (Node side): runs test/xs/run.mjs on sample
 * tests with known outcomes and checks that XS results, failures and a test
 * that can never finish are counted and fail the run (a failure on XS fails CI).
 */
import { execFile } from 'node:child_process';
import { strict as assert } from 'node:assert';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

function runXs(dir: string): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [join(root, 'test', 'xs', 'run.mjs'), `--dir=${dir}`, '--suffix=.sample.ts'],
      { cwd: root },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : -1;
        resolve({ code, out: stdout + stderr });
      },
    );
  });
}

describe('test:xs runner', () => {
  it('counts passes, failures and skips on XS and exits non-zero on a failure', async () => {
    const { code, out } = await runXs('test/xs/samples/mixed');
    assert.equal(code, 1, out);
    assert.match(out, /XS: 8 passed, 3 failed, 1 skipped/);
    assert.match(out, /harness fails a synchronous assertion\n\s+AssertionError: arithmetic: expected 3, got 2/);
    assert.match(out, /Error: rejected on purpose/);
    assert.match(out, /Error: done with an error/);
  });

  it('names a test whose promise never settles instead of hanging', async () => {
    const { code, out } = await runXs('test/xs/samples/hang');
    assert.equal(code, 1, out);
    assert.match(out, /1\) hang never settles\n\s+never finished/);
    assert.match(out, /XS: 0 passed, 1 failed/);
  });
});
