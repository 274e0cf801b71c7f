/** The fetch HttpTransport against a real loopback server (port 0). */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isAgentError } from '../../src/errors.js';
import { FetchHttp } from '../../targets/node/http.js';

describe('node http transport', () => {
  let server: Server;
  let url: string;
  const seen: Array<{ method: string; url: string; auth: string | undefined; body: string }> = [];

  before(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString('utf8')));
      req.on('end', () => {
        seen.push({ method: req.method ?? '', url: req.url ?? '', auth: req.headers.authorization, body });
        if (req.url?.startsWith('/bin') === true) {
          res.writeHead(206, { 'Content-Range': 'bytes 0-3/10' });
          res.end(Buffer.from([0, 255, 128, 10]));
          return;
        }
        if (req.url?.startsWith('/fail') === true) {
          res.writeHead(503, { 'Content-Type': 'application/problem+json', 'X-Thing': 'A' });
          res.end('{"status":503}');
          return;
        }
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.end('{"ok":"é"}');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('answers a binary request with the body as bytes (non-UTF-8 bytes intact) and an empty text body', async () => {
    const http = new FetchHttp();
    const r = await http.request({ method: 'GET', url: `${url}/bin`, headers: { range: 'bytes=0-3' }, binary: true });
    assert.equal(r.status, 206);
    assert.equal(r.body, '');
    assert.deepEqual(r.bytes, new Uint8Array([0, 255, 128, 10]));
    assert.equal(r.headers['content-range'], 'bytes 0-3/10');
    const text = await http.request({ method: 'GET', url: `${url}/x`, headers: {} });
    assert.equal(text.bytes, undefined);
  });

  it('sends method, headers and body; answers status, lower-case headers and text', async () => {
    const http = new FetchHttp();
    const r = await http.request({
      method: 'POST',
      url: `${url}/x?a=1`,
      headers: { authorization: 'Bearer t' },
      body: '{"v":1}',
    });
    assert.equal(r.status, 200);
    assert.equal(r.body, '{"ok":"é"}');
    assert.ok(r.headers['date'] !== undefined);
    assert.deepEqual(seen.at(-1), { method: 'POST', url: '/x?a=1', auth: 'Bearer t', body: '{"v":1}' });
  });

  it('resolves non-2xx answers', async () => {
    const r = await new FetchHttp().request({ method: 'GET', url: `${url}/fail`, headers: {} });
    assert.equal(r.status, 503);
    assert.equal(r.headers['x-thing'], 'A');
  });

  it('rejects with AgentError network when nothing answers', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    await assert.rejects(
      new FetchHttp().request({ method: 'GET', url: `http://127.0.0.1:${port}/`, headers: {} }),
      (e) => isAgentError(e, 'network'),
    );
  });
});
