/**
 * What `npm install` must build (issue 29, friction 9). npm 11 runs a
 * dependency's install script only when package.json's `allowScripts` covers
 * it (a coming npm skips the others): the field lists exactly the scripts this
 * project needs (allowed: better-sqlite3, the XS engine of @agoric/xsnap,
 * serialport's bindings; denied: the rest), and each native dependency is
 * built and loads, so that a skipped script fails here and not in a user's
 * first command.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { allowScripts?: Record<string, boolean> };

/** `npm <args>` in the project; undefined when this npm lacks the command (npm before 11). */
function npm(args: string[]): { status: number | null; out: string } | undefined {
  const r = spawnSync('npm', args, { cwd: root, encoding: 'utf8', timeout: 60000 });
  const out = `${r.stdout}${r.stderr}`;
  if (/Unknown command|not a valid command/i.test(out)) return undefined;
  return { status: r.status, out };
}

describe('install: the install scripts this project needs', function () {
  this.timeout(90000);

  it('allowScripts allows the three native builds and denies the other scripts, by name', () => {
    assert.deepEqual(pkg.allowScripts, {
      'better-sqlite3': true,
      '@agoric/xsnap': true,
      '@serialport/bindings-cpp': true,
      '@canboat/canboatjs': false,
      'es5-ext': false,
    });
  });

  it('npm install-scripts: every installed script is covered, and no entry is stale', function () {
    const ls = npm(['install-scripts', 'ls']);
    if (ls === undefined) return this.skip(); // npm < 11 has no allowScripts: it runs every script
    assert.equal(ls.status, 0, ls.out);
    assert.match(ls.out, /No packages with unreviewed install scripts/, ls.out);
    const prune = npm(['install-scripts', 'prune', '--dry-run']);
    assert.ok(prune !== undefined);
    assert.match(prune.out, /No unused allowScripts entries/, prune.out);
  });

  it('better-sqlite3 was built: a database opens and answers', () => {
    const db = new Database(':memory:');
    try {
      assert.deepEqual(db.prepare('select 6 * 7 as answer').get(), { answer: 42 });
    } finally {
      db.close();
    }
  });

  it("serialport's native bindings load and list the ports", async () => {
    const { autoDetect } = await import('@serialport/bindings-cpp');
    const ports = await autoDetect().list();
    assert.ok(Array.isArray(ports));
  });

  it('the XS engine of @agoric/xsnap was built: it evaluates a script (in a child: xsnap locks the realm down)', () => {
    const script = `
      const { startXs } = await import(${JSON.stringify(join(root, 'test', 'xs', 'xsnap.mjs'))});
      const worker = await startXs({ name: 'install-probe' });
      await worker.evaluate('globalThis.answer = 6 * 7;');
      await worker.close();
      process.stdout.write('xs ok');`;
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: 60000 });
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout, 'xs ok');
  });
});
