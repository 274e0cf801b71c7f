/**
 * The local service's command line over TLS (docs/tls.md): `--tls-cert FILE
 * --tls-key FILE` serves HTTPS (checked with the test CA) and prints https://
 * addresses; one flag without the other is refused.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FetchHttp } from '../../targets/node/http.js';
import { until } from '../e2e/support/harness.js';
import { useTlsTest, writePem } from './support.js';

const cliJs = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'host-sim', 'service', 'cli.js');

describe('tls: npm run service -- --tls-cert --tls-key', function () {
  this.timeout(20000);
  let child: ChildProcessWithoutNullStreams | undefined;
  const t = useTlsTest(async () => {
    if (child !== undefined && child.exitCode === null) {
      const exited = new Promise((resolve) => child!.once('close', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    child = undefined;
  });

  function start(args: string[]): { out: () => string; exited: Promise<number | null> } {
    const c = spawn(process.execPath, [cliJs, '--port', '0', '--host', '127.0.0.1', '--db', ':memory:', ...args]);
    child = c;
    let out = '';
    c.stdout.on('data', (b: Buffer) => (out += b.toString()));
    c.stderr.on('data', (b: Buffer) => (out += b.toString()));
    return { out: () => out, exited: new Promise((resolve) => c.once('close', resolve)) };
  }

  it('serves HTTPS with the given certificate', async () => {
    const cert = writePem(t.dir.path, 'cert.pem', t.pkis.good.certPem);
    const key = writePem(t.dir.path, 'key.pem', t.pkis.good.keyPem);
    const run = start(['--tls-cert', cert, '--tls-key', key]);
    await until(() => /on (https:\/\/127\.0\.0\.1:\d+)/.test(run.out()), 10000);
    const url = /on (https:\/\/127\.0\.0\.1:\d+)/.exec(run.out())![1]!;
    assert.match(run.out(), /hub wss:\/\/127\.0\.0\.1:\d+\/hubs\/properties/);
    const http = new FetchHttp({ tls: { ca: t.pkis.good.caPem } });
    const r = await http.request({
      method: 'GET',
      url: `${url}/api/v1/devices/get?device=demo-001`,
      headers: { authorization: 'Bearer device-token-demo-001' },
    });
    http.close();
    assert.equal(r.status, 200);
    assert.match(r.body, /demo-001/);
    // Plain HTTP on the same port is not served.
    await assert.rejects(fetch(url.replace('https:', 'http:') + '/api/v1/products/list'));
  });

  it('refuses --tls-cert without --tls-key, and a file that is not PEM', async () => {
    const cert = writePem(t.dir.path, 'cert.pem', t.pkis.good.certPem);
    let run = start(['--tls-cert', cert]);
    assert.equal(await run.exited, 2, 'a usage error');
    assert.match(run.out(), /--tls-cert and --tls-key go together/);
    const notPem = writePem(t.dir.path, 'key.pem', 'not a key');
    run = start(['--tls-cert', cert, '--tls-key', notPem]);
    assert.equal(await run.exited, 1, 'a runtime failure');
    assert.match(run.out(), /--tls-key .*key\.pem: not a PEM file/);
  });
});
