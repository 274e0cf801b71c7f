/**
 * The bound on concurrent firmware downloads (decisions 12; docs/service.md,
 * "Firmware images"): at the bound every download is served; one past it is
 * a 503 problem with `Retry-After`, whoever asks; a HEAD or a 304 takes no
 * slot; a slot comes back when its download ends or its client goes away, and
 * the next download is served. The default bound is the documented 16.
 */
import { strict as assert } from 'node:assert';
import { truncateSync, writeFileSync } from 'node:fs';
import { request as httpRequest, type ClientRequest, type IncomingMessage } from 'node:http';
import { join } from 'node:path';
import tmp from 'tmp';
import { defaultMaxDownloads, defaultRetryAfterS } from '../../host-sim/service/firmware/slots.js';
import { demo, useTestService } from './helpers.js';

/** 64 MiB (sparse): far more than the loopback socket buffers, so an unread download stays open. */
const bigSize = 64 * 1024 * 1024;

interface Held {
  req: ClientRequest;
  res: IncomingMessage;
}

describe('service firmware download bound', () => {
  const dir = tmp.dirSync({ unsafeCleanup: true });
  writeFileSync(join(dir.name, 'big.bin'), '');
  truncateSync(join(dir.name, 'big.bin'), bigSize);
  writeFileSync(join(dir.name, 'small.bin'), 'image');
  after(() => dir.removeCallback());
  const max = 3;
  const t = useTestService({ firmware: { dir: dir.name, maxDownloads: max } });
  const held: Held[] = [];
  afterEach(() => held.splice(0).forEach((h) => h.req.destroy()));

  /** Starts a download and stops reading once its headers arrived (the response stays open). */
  function hold(token: string = demo.token1): Promise<Held> {
    return new Promise((resolve, reject) => {
      const req = httpRequest(`${t.service.url}/firmware/big.bin`, { headers: { authorization: `Bearer ${token}` } });
      req.on('response', (res) => {
        res.pause();
        const h = { req, res };
        held.push(h);
        resolve(h);
      });
      req.on('error', reject);
      req.end();
    });
  }

  const fetchImage = (name: string, headers: Record<string, string> = {}): Promise<Response> =>
    fetch(`${t.service.url}/firmware/${name}`, { headers: { authorization: `Bearer ${demo.admin}`, ...headers } });

  it(`serves ${max} downloads at once and refuses one more with 503 and Retry-After`, async () => {
    const open = await Promise.all([hold(demo.token1), hold(demo.token2), hold(demo.admin)]);
    assert.deepEqual(
      open.map((h) => h.res.statusCode),
      [200, 200, 200],
    );
    assert.equal(t.service.downloads.snapshot().active, max);
    const refused = await fetchImage('small.bin');
    assert.equal(refused.status, 503);
    assert.equal(refused.headers.get('retry-after'), String(defaultRetryAfterS));
    assert.equal(refused.headers.get('content-type'), 'application/problem+json');
    const problem = (await refused.json()) as Record<string, unknown>;
    assert.match(problem['detail'] as string, /3 downloads are running; retry after 2 s/);
    // A range is a download too.
    assert.equal((await fetchImage('small.bin', { range: 'bytes=1-' })).status, 503);
    // HEAD and a 304 send no bytes: they take no slot.
    assert.equal(
      (
        await fetch(`${t.service.url}/firmware/small.bin`, {
          method: 'HEAD',
          headers: { authorization: `Bearer ${demo.admin}` },
        })
      ).status,
      200,
    );
    const etag = open[0]?.res.headers.etag ?? '';
    assert.equal((await fetchImage('big.bin', { 'if-none-match': etag })).status, 304);
    assert.deepEqual(t.service.downloads.snapshot(), { active: 3, peak: 3, served: 3, refused: 2 });
  });

  it('gives the slot back when a client goes away, and serves the next download', async () => {
    const open = await Promise.all([hold(), hold(), hold()]);
    assert.equal((await fetchImage('small.bin')).status, 503);
    open[1]?.req.destroy();
    await t.service.downloads.until((s) => s.active === max - 1);
    const next = await fetchImage('small.bin');
    assert.equal(next.status, 200);
    assert.equal(await next.text(), 'image');
    // A finished download gives its slot back too.
    await t.service.downloads.until((s) => s.active === max - 1);
    assert.equal((await fetchImage('small.bin')).status, 200);
    const stats = await t.service.downloads.until((s) => s.active === max - 1);
    assert.equal(stats.peak, max);
    assert.equal(stats.served, max + 2);
  });

  it('reads every byte of a held download once it is read again', async () => {
    const h = await hold();
    let bytes = 0;
    h.res.on('data', (c: Buffer) => (bytes += c.length));
    h.res.resume();
    await new Promise((done) => h.res.once('end', done));
    assert.equal(bytes, bigSize);
    await t.service.downloads.until((s) => s.active === 0);
  });

  it('bounds downloads at the documented default without an option', async () => {
    assert.equal(defaultMaxDownloads, 16);
    await t.restart({ firmware: { dir: dir.name } });
    assert.equal(t.service.downloads.max, 16);
    await Promise.all(Array.from({ length: 16 }, () => hold()));
    assert.equal((await fetchImage('small.bin')).status, 503);
  });
});
