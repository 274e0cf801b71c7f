/**
 * The HTTP rules of decisions.md section 6 and 7 through real HTTP: problem+json
 * errors with 400/401/403/404/405/413, the Date header from the service clock,
 * and never a crash or corrupted data on bad input.
 */
import { strict as assert } from 'node:assert';
import { request } from 'node:http';
import { demo, useTestService, type Reply } from './helpers.js';

function assertProblem(r: Reply, status: number, detail: RegExp): void {
  assert.equal(r.status, status, r.text);
  assert.match(r.headers.get('content-type') ?? '', /^application\/problem\+json/);
  const body = r.json as Record<string, unknown>;
  assert.equal(body['status'], status);
  assert.equal(typeof body['title'], 'string');
  assert.match(String(body['detail']), detail);
}

describe('service HTTP rules', () => {
  const t = useTestService();

  it('answers 401 with WWW-Authenticate for a missing or unknown token', async () => {
    const missing = await t.get('/api/v1/devices/list', null);
    assertProblem(missing, 401, /Authorization header missing/);
    assert.equal(missing.headers.get('www-authenticate'), 'Bearer');
    assertProblem(await t.get('/api/v1/devices/list', 'nope'), 401, /unknown bearer token/);
    const r = await fetch(`${t.service.url}/api/v1/devices/list`, { headers: { Authorization: 'Basic abc' } });
    assert.equal(r.status, 401);
  });

  it('answers 403 when a device token reaches beyond its device', async () => {
    assertProblem(await t.get('/api/v1/devices/get?device=demo-002', demo.token1), 403, /another device/);
    assertProblem(await t.get('/api/v1/devices/list', demo.token1), 403, /may not list devices/);
    assertProblem(await t.get(`/api/v1/products/get?product=${demo.product}`, demo.token1), 403, /may not/);
    assertProblem(
      await t.post('/api/v1/states/write', { device: 'demo-002', states: [] }, demo.token1),
      403,
      /another/,
    );
    assertProblem(await t.get(`/api/v1/states/read?entities=${demo.product}`, demo.token1), 403, /another device/);
    // Every read of another device names it alike (the dashboard shows whichever answer comes first).
    for (const path of [
      'devices/get',
      'channels/list',
      'properties/get',
      'states/read/last',
      'measurements/read/last',
    ]) {
      assertProblem(await t.get(`/api/v1/${path}?device=demo-002`, demo.token1), 403, /another device/);
    }
    assert.equal((await t.get('/api/v1/devices/get?device=demo-001', demo.token1)).status, 200);
  });

  it('answers 404 for unknown routes and entities, 405 with Allow for a wrong method', async () => {
    assertProblem(await t.get('/api/v1/nothing'), 404, /no route/);
    assertProblem(await t.get('/api/v1/devices/get?device=ghost'), 404, /unknown device "ghost"/);
    const r = await t.post('/api/v1/devices/get', {});
    assertProblem(r, 405, /POST not allowed; use GET/);
    assert.equal(r.headers.get('allow'), 'GET');
    assertProblem(await t.get('/api/v1/states/write'), 405, /use POST/);
  });

  it('answers 400 for malformed JSON, wrong types and both of two exclusive parameters', async () => {
    assertProblem(await t.post('/api/v1/states/write', '{"device": '), 400, /malformed JSON/);
    assertProblem(await t.post('/api/v1/states/write', ''), 400, /empty body/);
    assertProblem(await t.post('/api/v1/states/write', '[1]'), 400, /expected a JSON object/);
    assertProblem(await t.post('/api/v1/states/write', { device: 5, states: [] }), 400, /device: expected a string/);
    assertProblem(
      await t.get(`/api/v1/devices/get?device=demo-001&entity=${demo.device1}`),
      400,
      /device and entity are mutually exclusive/,
    );
    assertProblem(await t.get('/api/v1/states/read?devices=demo-001&entities=x'), 400, /mutually exclusive/);
    assertProblem(await t.get('/api/v1/devices/get'), 400, /device or entity is required/);
    assertProblem(await t.get('/api/v1/devices/list?i=-1'), 400, /i: expected a non-negative integer/);
    assertProblem(await t.get('/api/v1/devices/get?device=a&device=b'), 400, /expected one value/);
  });

  it('answers 413 for a body over 1 MiB and keeps serving', async () => {
    const big = JSON.stringify({ device: 'demo-001', states: [], pad: 'x'.repeat(1024 * 1024) });
    assertProblem(await t.post('/api/v1/states/write', big), 413, /over 1048576 bytes/);
    const streamed = await new Promise<number>((resolve, reject) => {
      const url = new URL(`${t.service.url}/api/v1/states/write`);
      const req = request(url, { method: 'POST', headers: { Authorization: `Bearer ${demo.admin}` } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      for (let i = 0; i < 17; i++) req.write('x'.repeat(65536)); // chunked, no Content-Length
      req.end();
    });
    assert.equal(streamed, 413);
    assert.equal((await t.get('/api/v1/devices/list')).status, 200);
  });

  it('sends the Date header from the service clock', async () => {
    const r = await t.get('/api/v1/devices/list');
    assert.equal(r.headers.get('date'), new Date(t.clock.nowMs).toUTCString());
  });

  it('stores nothing from a write with one bad entry', async () => {
    const bad = await t.post('/api/v1/states/write', {
      device: 'demo-001',
      states: [
        { channel: 'temperature.reported', value: 1 },
        { channel: 'temperature.reported', value: { no: 'objects' } },
      ],
    });
    assertProblem(bad, 400, /states\[1\].value/);
    const last = await t.get('/api/v1/states/read/last?device=demo-001');
    assert.deepEqual(last.json, []);
  });
});
