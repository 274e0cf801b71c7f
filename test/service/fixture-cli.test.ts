/**
 * The fixture validator (a bad fixture is a clear error naming the field) and
 * the command line (prints its address and tokens, serves the demo fixture).
 */
import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { validateFixture, startService } from '../../host-sim/service/index.js';
import { demoFixture, repoRoot } from './helpers.js';

function rejectsWith(mutate: (f: Record<string, unknown>) => void, pattern: RegExp): void {
  const f = demoFixture() as unknown as Record<string, unknown>;
  mutate(f);
  assert.throws(
    () => validateFixture(f),
    (e: unknown) => (e as { code?: string }).code === 'config' && pattern.test((e as Error).message),
  );
}

type Obj = Record<string, unknown>;
const first = (f: Obj, field: string): Obj => (f[field] as Obj[])[0] as Obj;

describe('service fixture', () => {
  it('accepts the demo fixture and fills defaults', () => {
    const f = validateFixture({
      products: [{ uid: 'p', name: 'P' }],
      devices: [{ uid: 'd', key: 'k', name: 'D', product: 'p' }],
    });
    assert.equal(f.products[0]?.enabled, true);
    assert.deepEqual(f.products[0]?.metrics, []);
    assert.deepEqual(f.devices[0]?.properties, {});
    assert.equal(validateFixture(demoFixture()).devices.length, 2);
  });

  it('names the offending field by its path', () => {
    rejectsWith((f) => (f['products'] = 'x'), /^fixture products: expected an array/);
    rejectsWith(
      (f) => delete first(f, 'products')['uid'],
      /^fixture products\[0\]\.uid: expected a string, got missing/,
    );
    rejectsWith(
      (f) => ((first(f, 'products')['channels'] as Obj[])[2] = { uid: 'c', key: 7 }),
      /^fixture products\[0\]\.channels\[2\]\.key: expected a string/,
    );
    rejectsWith(
      (f) => ((first(f, 'products')['metrics'] as Obj[])[0] = { key: 'gps', aggregated: 'median' }),
      /products\[0\]\.metrics\[0\]\.aggregated: expected one of/,
    );
    rejectsWith(
      (f) => (first(f, 'devices')['product'] = 'nope'),
      /^fixture devices\[0\]\.product: unknown product "nope"/,
    );
    rejectsWith((f) => (first(f, 'devices')['properties'] = { BAD: 1 }), /devices\[0\]\.properties\.BAD: bad name/);
    rejectsWith(
      (f) => (((f['devices'] as Obj[])[1] as Obj)['key'] = 'demo-001'),
      /devices\[1\]\.key: duplicate "demo-001"/,
    );
    rejectsWith((f) => (first(f, 'relations')['parent'] = 'x'), /relations\[0\]\.parent: unknown entity "x"/);
    rejectsWith((f) => (first(f, 'tokens')['role'] = 'root'), /tokens\[0\]\.role: expected one of admin, device/);
    rejectsWith((f) => (((f['tokens'] as Obj[])[1] as Obj)['device'] = 'x'), /tokens\[1\]\.device: unknown device "x"/);
    assert.throws(() => validateFixture([]), /fixture \(root\): expected an object/);
  });

  it('makes startService reject a bad fixture or a missing file', async () => {
    await assert.rejects(
      startService({ fixture: '/nonexistent/fixture.json' }),
      /fixture \/nonexistent\/fixture.json: cannot read/,
    );
    await assert.rejects(startService({ fixture: { devices: 1 } as never }), /fixture devices: expected an array/);
  });
});

describe('service command line', () => {
  /** Starts the CLI; resolves with its address and what it printed once the token line is out. */
  async function run(extra: string[], ready: RegExp, body: (url: string, out: string) => Promise<void>): Promise<void> {
    const cli = join(repoRoot, 'build', 'host-sim', 'service', 'cli.js');
    const args = [cli, '--port', '0', '--host', '127.0.0.1', '--db', ':memory:', ...extra];
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      let out = '';
      const url = await new Promise<string>((resolve, reject) => {
        child.stdout.on('data', (d: Buffer) => {
          out += String(d);
          const m = /on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
          if (m && ready.test(out)) resolve(m[1] as string);
        });
        child.once('exit', (code) => reject(new Error(`cli exited ${code}: ${out}`)));
      });
      await body(url, out);
    } finally {
      child.kill('SIGTERM');
    }
  }

  it('prints the count of tokens and their file, not the tokens, and serves the demo fixture', async function () {
    this.timeout(15_000);
    await run([], /--print-tokens lists them/, async (url, out) => {
      assert.match(out, /3 tokens \(1 admin, 2 device\) from .*demo\.json; --print-tokens lists them/);
      assert.doesNotMatch(out, /admin-token-demo|device-token-demo/);
      const r = await fetch(`${url}/api/v1/devices/list`, { headers: { Authorization: 'Bearer admin-token-demo' } });
      assert.equal(((await r.json()) as unknown[]).length, 2);
    });
  });

  it('lists every token with --print-tokens', async function () {
    this.timeout(15_000);
    await run(['--print-tokens'], /device-token-demo-002/, async (_url, out) => {
      assert.match(out, /3 tokens \(1 admin, 2 device\) from .*demo\.json:/);
      assert.match(out, /admin-token-demo\s+admin/);
      assert.match(out, /device-token-demo-001\s+device demo-001/);
    });
  });
});
