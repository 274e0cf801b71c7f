/** Updates that must not install: each ends `failed <errno>`, the slot cancelled, the running image kept. */
import { assert } from '../../support/assert.js';
import { board, drain, makeImage, propertiesFor, type Board } from './harness.js';

/** Board A offered B's properties (with `edit`), after `setup`; answers the board once it settled. */
async function attempt(
  edit: (p: Record<string, string>) => void = () => undefined,
  setup: (a: Board, image: Uint8Array) => void = () => undefined,
): Promise<Board> {
  const a = board('1.0.0');
  const image = makeImage(4000, 2);
  a.http.images.set('b.bin', image);
  const p = propertiesFor('1.1.0', image);
  edit(p);
  a.http.properties = p;
  setup(a, image);
  await a.updater.start();
  await drain();
  await a.clock.advanceAsync(120_000);
  return a;
}

function assertKept(a: Board, status: string): void {
  assert.equal(a.updater.status, status);
  assert.equal(a.slots.completed, undefined);
  assert.equal(a.slots.restarted, 0);
  assert.equal(a.store.get('ota/pending'), undefined);
  const last = a.http.reported[a.http.reported.length - 1];
  assert.deepEqual(last, { 'fw-running': '1.0.0', 'fw-status': status });
}

describe('ota updater: failures', () => {
  it('a wrong SHA-256 ends failed EBADMSG, the slot cancelled', async () => {
    const a = await attempt((p) => (p['fw-sha256'] = 'ab'.repeat(32)));
    assertKept(a, 'failed EBADMSG');
    assert.equal(a.slots.cancelled, 1);
  });

  it('a signature by another key ends failed EKEYREJECTED, and is not downloaded again after a restart', async () => {
    const a = await attempt((p) => (p['fw-sig'] = propertiesFor('1.1.0', makeImage(4000, 2), 'b.bin', 9)['fw-sig']!));
    assertKept(a, 'failed EKEYREJECTED');
    assert.equal(a.slots.cancelled, 1);
    const requests = a.http.ranges.length;
    const again = board('1.0.0', a);
    await again.updater.start();
    await drain();
    assert.equal(again.http.ranges.length, requests);
    assert.equal(again.updater.status, 'failed EKEYREJECTED');
  });

  it('a truncated image (signed whole, served short) ends failed EBADMSG', async () => {
    const a = await attempt(undefined, (s, image) => s.http.images.set('b.bin', image.slice(0, 3000)));
    assertKept(a, 'failed EBADMSG');
    assert.equal(a.slots.written.length, 3000);
  });

  it('malformed properties end failed EINVAL without a request, logged with the reason', async () => {
    for (const [name, value] of [
      ['fw-sha256', 'AB'.repeat(32)],
      ['fw-sha256', 'abc'],
      ['fw-sig', 'not base64!'],
      ['fw-url', 'ftp://x/y'],
      ['fw-version', 'a b'],
    ] as const) {
      const a = await attempt((p) => (p[name] = value));
      assertKept(a, 'failed EINVAL');
      assert.equal(a.http.ranges.length, 0, name);
      assert.ok(a.logger.find('warn', 'desired firmware invalid')[0]?.fields?.['reason'] !== undefined);
    }
  });

  it('a missing image is ENOENT, a refused token EACCES, another 4xx EIO', async () => {
    assertKept(await attempt((p) => (p['fw-url'] = 'http://dds.test/firmware/none.bin')), 'failed ENOENT');
    assertKept(await attempt(undefined, (a) => (a.http.imageStatus = 403)), 'failed EACCES');
    assertKept(await attempt(undefined, (a) => (a.http.imageStatus = 400)), 'failed EIO');
  });

  it('a service that stays unreachable ends failed ETIMEDOUT after maxAttempts, 5xx EIO', async () => {
    const a = await attempt(undefined, (s) => [0, 1, 2, 3, 4, 5, 6, 7].forEach((n) => s.http.drops.add(n)));
    assertKept(a, 'failed ETIMEDOUT');
    assert.equal(a.http.ranges.length, 8);
    const b = await attempt(undefined, (s) => (s.http.imageStatus = 500));
    assertKept(b, 'failed EIO');
  });

  it('a flash write that fails is EIO; an image over the slot EMSGSIZE; both cancelled or never opened', async () => {
    const a = await attempt(undefined, (s) => (s.slots.failWriteAfter = 2000));
    assertKept(a, 'failed EIO');
    assert.equal(a.slots.cancelled, 1);
    assert.ok(a.logger.find('error', 'write failed').length === 1);
    const b = await attempt(undefined, (s) => (s.slots.capacity = 3999));
    assertKept(b, 'failed EMSGSIZE');
    assert.equal(b.slots.opened, 0);
  });

  it('a server that ignores Range with an image over one chunk is EPROTO; an image that changes midway ESTALE', async () => {
    assertKept(await attempt(undefined, (a) => (a.http.ignoreRange = true)), 'failed EPROTO');
    const b = await attempt(undefined, (s) => {
      // The second request sees another image (another ETag).
      s.http.drops.add(1);
      const original = s.http.request.bind(s.http);
      s.http.request = (r) => {
        if (s.http.ranges.length === 1) s.http.etag = '"v2"';
        return original(r);
      };
    });
    assertKept(b, 'failed ESTALE');
    assert.equal(b.slots.cancelled, 1);
  });

  it('the same failed update is not tried again until the properties change', async () => {
    const a = await attempt(undefined, (s) => (s.http.imageStatus = 404));
    assertKept(a, 'failed ENOENT');
    const requests = a.http.ranges.length;
    a.http.imageStatus = undefined;
    a.updater.hubConnected();
    await drain();
    assert.equal(a.http.ranges.length, requests);
    const other = makeImage(1000, 8);
    a.http.images.set('b2.bin', other);
    a.updater.offer(propertiesFor('1.1.1', other, 'b2.bin'));
    await drain();
    assert.deepEqual(a.slots.completed, other);
  });
});
