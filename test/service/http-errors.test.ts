/**
 * HTTP errors that answer (decisions 6): malformed framing gets 400/431
 * problems instead of a silently closed socket, every 500 is logged with its
 * cause at the default log level, links never echo the `Host` header, the
 * connection tokens of the hub never reach the log, and non-API paths go to
 * the `fallback` handler (the dashboard's hook).
 */
import { strict as assert } from 'node:assert';
import { connect } from 'node:net';
import { demo, demoFixture, startTestService, type TestService } from './helpers.js';
import { RawHubClient } from './raw-hub-client.js';

/** Sends raw bytes; resolves with everything the server wrote before closing. */
function rawExchange(port: number, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.end(request));
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
    socket.on('error', reject);
  });
}

describe('service HTTP errors that answer', () => {
  let t: TestService;
  const logged: string[] = [];
  const errors: string[] = [];
  afterEach(async () => {
    logged.length = 0;
    errors.length = 0;
    await t.service.close();
  });

  it('answers a duplicate Content-Length with a 400 problem and a URL over 16 KB with 431', async () => {
    t = await startTestService({ logError: (l) => errors.push(l) });
    const dup = await rawExchange(
      t.service.port,
      'POST /api/v1/states/write HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}',
    );
    assert.match(dup, /^HTTP\/1\.1 400 Bad Request\r\n/);
    assert.match(dup, /Content-Type: application\/problem\+json/);
    assert.match(dup, /"status":400/);
    const long = await rawExchange(
      t.service.port,
      `GET /api/v1/devices/list?q=${'a'.repeat(17_000)} HTTP/1.1\r\nHost: x\r\n\r\n`,
    );
    assert.match(long, /^HTTP\/1\.1 431 Request Header Fields Too Large\r\n/);
    assert.match(long, /"status":431/);
    const garbage = await rawExchange(t.service.port, 'NOT HTTP AT ALL\r\n\r\n');
    assert.match(garbage, /^HTTP\/1\.1 400 /);
  });

  it('logs a 500 with its cause at the default log level and answers a generic problem', async () => {
    t = await startTestService({
      logError: (l) => errors.push(l),
      fallback: () => {
        throw new Error('dashboard exploded');
      },
    });
    const r = await t.get('/index.html?token=secret-value');
    assert.equal(r.status, 500);
    assert.deepEqual(r.json, {
      type: 'about:blank',
      status: 500,
      title: 'Internal Server Error',
      detail: 'internal error',
    });
    assert.equal(errors.length, 1);
    assert.match(errors[0] as string, /GET \/index\.html\?token=\*\*\* answered 500: Error: dashboard exploded/);
    assert.doesNotMatch(errors[0] as string, /secret-value/);
  });

  it('hands every non-API path to the fallback and keeps API 404s as problems', async () => {
    const seen: string[] = [];
    t = await startTestService({
      fallback: (req, res) => {
        seen.push(`${req.method} ${req.url}`);
        res.writeHead(200, { 'Content-Type': 'text/html' }).end('<h1>dashboard</h1>');
      },
    });
    const root = await fetch(`${t.service.url}/`);
    assert.equal(await root.text(), '<h1>dashboard</h1>');
    assert.equal((await fetch(`${t.service.url}/app.js`)).status, 200);
    assert.deepEqual(seen, ['GET /', 'GET /app.js']);
    const api = await t.get('/api/v1/nothing');
    assert.equal(api.status, 404);
    assert.equal(api.headers.get('content-type'), 'application/problem+json');
    assert.equal((await t.get('/hubs/other')).status, 404);
    assert.equal(seen.length, 2);
  });

  it('builds links from the listening address or publicUrl, never from the Host header', async () => {
    t = await startTestService();
    // Raw bytes: the Host header is sent exactly as written.
    const devices = async (): Promise<string> => {
      const answer = await rawExchange(
        t.service.port,
        `GET /api/v1/devices/get?device=demo-001 HTTP/1.1\r\nHost: evil.example\r\nAuthorization: Bearer ${demo.admin}\r\nConnection: close\r\n\r\n`,
      );
      return (JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)) as { link: string }).link;
    };
    assert.equal(await devices(), `${t.service.url}/admin/devices/${demo.device1}`);
    await t.service.close();
    t = await startTestService({ publicUrl: 'https://dds.example:8443/' });
    assert.equal(await devices(), `https://dds.example:8443/admin/devices/${demo.device1}`);
    await assert.rejects(
      startTestService({ fixture: demoFixture(), publicUrl: 'javascript:alert(1)' }),
      (e: unknown) => (e as { code?: string }).code === 'config',
    );
  });

  it('never logs a connection token', async () => {
    t = await startTestService({ log: (l) => logged.push(l) });
    const n = await fetch(`${t.service.url}/hubs/properties/negotiate?negotiateVersion=1`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${demo.token1}` },
    });
    const { connectionToken } = (await n.json()) as { connectionToken: string };
    const client = await RawHubClient.open(t.service.url, demo.token1, connectionToken);
    client.send('{"protocol":"json","version":1}\u001e');
    await client.waitFor(() => client.records.length >= 1);
    await assert.rejects(RawHubClient.open(t.service.url, demo.token1, connectionToken), /upgrade 404/);
    client.ws.terminate();
    assert.ok(
      logged.some((l) => /hub: connection h1 open/.test(l)),
      logged.join('\n'),
    );
    assert.ok(
      logged.every((l) => !l.includes(connectionToken)),
      logged.join('\n'),
    );
  });
});
