/**
 * `GET /firmware/<name>` (decisions 12; docs/service.md, "Firmware images"):
 * any valid token gets the image, with a strong ETag (its SHA-256), one
 * Range (206, 416), If-Range and If-None-Match as a client expects; nothing
 * outside the folder resolves (traversal, hidden files, a symbolic link out);
 * the admin listing names each image with its SHA-256 and stored signature.
 * Every API answer is checked against the OpenAPI document (helpers.ts).
 */
import { strict as assert } from 'node:assert';
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import tmp from 'tmp';
import { Catalog } from '../../host-sim/service/catalog.js';
import { demo, demoFixture, startTestService, useTestService } from './helpers.js';
import { checkResponse } from './openapi-check.js';

type Obj = Record<string, unknown>;
const image = randomBytes(5000);
const sha = createHash('sha256').update(image).digest('hex');
const etag = `"${sha}"`;

/** A raw GET (node:http, so no header is added or dropped), checked against the document. */
function raw(
  url: string,
  headers: Record<string, string>,
  method = 'GET',
): Promise<{ status: number; headers: Obj; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const u = new URL(url);
    // The path goes out as written (a URL object would resolve `..` and `%2e%2e` first).
    const path = url.slice(u.origin.length);
    const req = httpRequest({ host: u.hostname, port: u.port, path, method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const body = Buffer.concat(chunks);
        const type = String(res.headers['content-type'] ?? '');
        const json = type.includes('json') ? (JSON.parse(body.toString()) as unknown) : undefined;
        checkResponse(method, path, res.statusCode ?? 0, type, json);
        resolve({ status: res.statusCode ?? 0, headers: res.headers as Obj, body });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

describe('service firmware images', () => {
  const dir = tmp.dirSync({ unsafeCleanup: true });
  const outside = tmp.dirSync({ unsafeCleanup: true });
  writeFileSync(join(dir.name, 'board-1.2.0.bin'), image);
  writeFileSync(join(dir.name, 'board-1.2.0.bin.sig'), 'MEUCIQ+abc/def==\n');
  writeFileSync(join(dir.name, 'empty.bin'), '');
  writeFileSync(join(dir.name, '.hidden'), 'secret');
  mkdirSync(join(dir.name, 'sub'));
  writeFileSync(join(dir.name, 'sub', 'inner.bin'), 'inner');
  writeFileSync(join(outside.name, 'passwd'), 'root:x:0:0');
  symlinkSync(join(outside.name, 'passwd'), join(dir.name, 'escape.bin'));
  symlinkSync(join(dir.name, 'board-1.2.0.bin'), join(dir.name, 'latest.bin'));
  after(() => {
    dir.removeCallback();
    outside.removeCallback();
  });
  const t = useTestService({ firmware: { dir: dir.name } }, { once: true });
  const get = (path: string, headers: Record<string, string> = {}, token: string | null = demo.token1) =>
    raw(t.service.url + path, token === null ? headers : { authorization: `Bearer ${token}`, ...headers });

  it('defines the six fw-* properties for every device, each starting as ""', async () => {
    for (const device of ['demo-001', 'demo-002']) {
      const props = (await t.get(`/api/v1/properties/get?device=${device}`)).json as Obj;
      for (const name of ['fw-version', 'fw-url', 'fw-sha256', 'fw-sig', 'fw-running', 'fw-status'])
        assert.equal(props[name], '', `${device} ${name}`);
      assert.equal(props['report-mode'], 'normal'); // the fixture's own stay
    }
    // A board reports through its own properties with its own token.
    const set = await t.post(
      '/api/v1/properties/set',
      { device: 'demo-001', values: { 'fw-status': 'idle' } },
      demo.token1,
    );
    assert.equal(set.status, 200, set.text);
    assert.equal(((await t.get('/api/v1/properties/get?device=demo-001')).json as Obj)['fw-status'], 'idle');
    await t.post('/api/v1/properties/set', { device: 'demo-001', values: { 'fw-status': '' } });
  });

  it('gives the fw-* properties to devices of a catalog saved before they existed, keeping saved values', () => {
    const catalog = new Catalog(demoFixture());
    const uid = catalog.deviceByRef('demo-001')!.uid;
    // Rows as a database of the previous version holds them: a saved value, no fw-* row.
    catalog.restore({
      devices: new Map(),
      products: new Map(),
      properties: new Map([[uid, new Map<string, boolean | number | string>([['sample-rate', 9]])]]),
      relations: [],
      relationsComplete: false,
    });
    const device = catalog.deviceByRef('demo-001');
    assert.equal(device?.properties['sample-rate'], 9);
    assert.equal(device?.properties['fw-running'], '');
    assert.equal(device?.properties['fw-status'], '');
  });

  it('serves an image whole to a device token and to the admin, with its SHA-256 as a strong ETag', async () => {
    for (const token of [demo.token1, demo.token2, demo.admin]) {
      const r = await get('/firmware/board-1.2.0.bin', {}, token);
      assert.equal(r.status, 200);
      assert.ok(r.body.equals(image));
      assert.equal(r.headers['etag'], etag);
      assert.equal(r.headers['accept-ranges'], 'bytes');
      assert.equal(r.headers['content-length'], '5000');
      assert.equal(r.headers['content-type'], 'application/octet-stream');
    }
    const head = await raw(
      `${t.service.url}/firmware/board-1.2.0.bin`,
      { authorization: `Bearer ${demo.token1}` },
      'HEAD',
    );
    assert.equal(head.status, 200);
    assert.equal(head.headers['content-length'], '5000');
    assert.equal(head.body.length, 0);
    const empty = await get('/firmware/empty.bin');
    assert.equal(empty.status, 200);
    assert.equal(empty.body.length, 0);
  });

  it('answers 401 without a valid token', async () => {
    assert.equal((await get('/firmware/board-1.2.0.bin', {}, null)).status, 401);
    assert.equal((await get('/firmware/board-1.2.0.bin', {}, 'nope')).status, 401);
  });

  it('serves one Range as 206 (first-last, open-ended, suffix; the end clamped)', async () => {
    const cases: [string, number, number][] = [
      ['bytes=0-0', 0, 0],
      ['bytes=100-199', 100, 199],
      ['bytes=4096-', 4096, 4999],
      ['bytes=-10', 4990, 4999],
      ['bytes=-99999', 0, 4999],
      ['bytes=4999-99999999', 4999, 4999],
      ['bytes = 10 - 20', 10, 20],
    ];
    for (const [range, first, last] of cases) {
      const r = await get('/firmware/board-1.2.0.bin', { range });
      assert.equal(r.status, 206, range);
      assert.equal(r.headers['content-range'], `bytes ${first}-${last}/5000`, range);
      assert.equal(r.headers['content-length'], String(last - first + 1), range);
      assert.ok(r.body.equals(image.subarray(first, last + 1)), range);
      assert.equal(r.headers['etag'], etag);
    }
  });

  it('answers 416 with the size for a range at or past the end, and ignores ranges it does not serve', async () => {
    for (const range of ['bytes=5000-', 'bytes=5000-6000', 'bytes=-0', 'bytes=999999999999999-']) {
      const r = await get('/firmware/board-1.2.0.bin', { range });
      assert.equal(r.status, 416, range);
      assert.equal(r.headers['content-range'], 'bytes */5000');
      assert.equal(r.headers['content-type'], 'application/problem+json');
    }
    assert.equal((await get('/firmware/empty.bin', { range: 'bytes=0-' })).status, 416);
    // Several ranges, another unit, bad syntax, last < first: the Range is ignored (RFC 9110 14.2).
    for (const range of ['bytes=0-1,5-6', 'items=0-1', 'bytes=a-b', 'bytes=20-10', 'bytes=']) {
      const r = await get('/firmware/board-1.2.0.bin', { range });
      assert.equal(r.status, 200, range);
      assert.ok(r.body.equals(image), range);
    }
  });

  it('honours If-Range (the current ETag resumes; another, or a date, gets the image whole)', async () => {
    const same = await get('/firmware/board-1.2.0.bin', { range: 'bytes=1000-', 'if-range': etag });
    assert.equal(same.status, 206);
    assert.ok(same.body.equals(image.subarray(1000)));
    for (const ifRange of ['"0000"', `W/${etag}`, 'Tue, 01 Jan 2030 00:00:00 GMT']) {
      const r = await get('/firmware/board-1.2.0.bin', { range: 'bytes=1000-', 'if-range': ifRange });
      assert.equal(r.status, 200, ifRange);
      assert.ok(r.body.equals(image));
    }
  });

  it('answers 304 to If-None-Match naming the ETag (weak comparison) or *, the image otherwise', async () => {
    for (const tag of [etag, `W/${etag}`, `"x", ${etag}`, '*']) {
      const r = await get('/firmware/board-1.2.0.bin', { 'if-none-match': tag });
      assert.equal(r.status, 304, tag);
      assert.equal(r.body.length, 0);
      assert.equal(r.headers['etag'], etag);
    }
    const other = await get('/firmware/board-1.2.0.bin', { 'if-none-match': '"other"' });
    assert.equal(other.status, 200);
  });

  it('serves nothing outside the folder: traversal, hidden files, sub-folders and links out are 404', async () => {
    for (const path of [
      '/firmware/..%2F..%2F..%2Fetc%2Fpasswd',
      '/firmware/%2e%2e',
      '/firmware/..',
      '/firmware/.hidden',
      '/firmware/sub',
      '/firmware/sub/inner.bin',
      '/firmware/sub%2Finner.bin',
      '/firmware/escape.bin',
      '/firmware/missing.bin',
      '/firmware/',
    ]) {
      const r = await get(path);
      assert.equal(r.status, 404, path);
      assert.equal(r.headers['content-type'], 'application/problem+json', path);
      assert.ok(!r.body.toString().includes('root:x'), path);
    }
    // A link that stays inside the folder is the image it names.
    const inside = await get('/firmware/latest.bin');
    assert.equal(inside.status, 200);
    assert.ok(inside.body.equals(image));
    const post = await t.post('/firmware/board-1.2.0.bin', {});
    assert.equal(post.status, 405);
    assert.equal(post.headers.get('allow'), 'GET, HEAD');
  });

  it('lists the folder for the admin with sizes, SHA-256 and stored signatures; 403 for a device', async () => {
    const r = await t.get('/firmware');
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.json, [
      { name: 'board-1.2.0.bin', size: 5000, sha256: sha, sig: 'MEUCIQ+abc/def==' },
      { name: 'empty.bin', size: 0, sha256: createHash('sha256').digest('hex') },
      { name: 'latest.bin', size: 5000, sha256: sha },
    ]);
    assert.equal((await t.get('/firmware', demo.token1)).status, 403);
  });
});

describe('service firmware images: no folder, bad options', () => {
  it('answers 404 naming --firmware for an image, and an empty list, when no folder is served', async () => {
    const t = await startTestService();
    try {
      const r = await t.get('/firmware/x.bin');
      assert.equal(r.status, 404);
      assert.match((r.json as Obj)['detail'] as string, /--firmware DIR/);
      const list = await t.get('/firmware');
      assert.equal(list.status, 200);
      assert.deepEqual(list.json, []);
    } finally {
      await t.service.close();
    }
  });

  it('does not start with a missing folder or a bound below 1', async () => {
    await assert.rejects(startTestService({ firmware: { dir: '/nonexistent/images' } }), { code: 'config' });
    const dir = tmp.dirSync();
    try {
      await assert.rejects(startTestService({ firmware: { dir: dir.name, maxDownloads: 0 } }), { code: 'config' });
    } finally {
      dir.removeCallback();
    }
  });
});
