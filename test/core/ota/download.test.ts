/** The chunked download: resume with Range after a drop or a cut transfer, a busy service waited out, progress every 5 s. */
import { assert } from '../../support/assert.js';
import { board, drain, makeImage, propertiesFor } from './harness.js';

describe('ota download', () => {
  it('a dropped request resumes with a Range from the byte reached, after the retry delay', async () => {
    const a = board('1.0.0');
    const image = makeImage(4096, 2);
    a.http.images.set('b.bin', image);
    a.http.properties = propertiesFor('1.1.0', image);
    a.http.drops.add(2);
    await a.updater.start();
    await drain();
    assert.deepEqual(a.http.ranges, ['bytes=0-1023', 'bytes=1024-2047', 'bytes=2048-3071']);
    assert.equal(a.updater.status, 'downloading 50%');
    await a.clock.advanceAsync(999);
    assert.equal(a.http.ranges.length, 3, 'waits the retry delay');
    await a.clock.advanceAsync(1);
    await drain();
    assert.deepEqual(a.http.ranges.slice(3), ['bytes=2048-3071', 'bytes=3072-4095']);
    assert.deepEqual(a.slots.completed, image);
    assert.equal(a.slots.opened, 1, 'one image, written once');
  });

  it('a transfer cut midway (body shorter than its Content-Range) is asked again whole', async () => {
    const a = board('1.0.0');
    const image = makeImage(3000, 3);
    a.http.images.set('b.bin', image);
    a.http.properties = propertiesFor('1.1.0', image);
    a.http.cuts.set(1, 512);
    await a.updater.start();
    await a.clock.advanceAsync(5000);
    assert.deepEqual(a.http.ranges, ['bytes=0-1023', 'bytes=1024-2047', 'bytes=1024-2047', 'bytes=2048-2999']);
    assert.deepEqual(a.slots.completed, image);
  });

  it('a busy service (503, Retry-After) is waited out without counting as a failure', async () => {
    const a = board('1.0.0', undefined, { maxAttempts: 2 });
    const image = makeImage(2048, 4);
    a.http.images.set('b.bin', image);
    a.http.properties = propertiesFor('1.1.0', image);
    a.http.imageStatus = 503;
    const original = a.http.request.bind(a.http);
    a.http.request = async (r) => {
      const response = await original(r);
      return response.status === 503 ? { ...response, headers: { 'retry-after': '30' } } : response;
    };
    await a.updater.start();
    await drain();
    for (let i = 0; i < 5; i++) await a.clock.advanceAsync(31_000);
    assert.equal(a.updater.status, 'downloading 0%');
    const busy = a.http.ranges.length;
    assert.ok(busy >= 5, `asked ${busy} times`);
    // Each wait is Retry-After (30 s) plus the policy's delay (1 s).
    assert.ok(busy <= 6, `asked ${busy} times`);
    a.http.imageStatus = undefined;
    await a.clock.advanceAsync(31_000);
    await drain();
    assert.deepEqual(a.slots.completed, image);
  });

  it('reports downloading progress at most once every 5 s', async () => {
    const a = board('1.0.0', undefined, { retry: { nextDelayMs: () => 700 } });
    const image = makeImage(40 * 1024, 5);
    a.http.images.set('b.bin', image);
    a.http.properties = propertiesFor('1.1.0', image);
    // Every other request drops: each chunk takes 700 ms of the clock.
    for (let n = 1; n < 80; n += 2) a.http.drops.add(n);
    const times: number[] = [];
    const original = a.http.request.bind(a.http);
    a.http.request = (r) => {
      if (r.method === 'POST') times.push(a.clock.monotonicMs());
      return original(r);
    };
    await a.updater.start();
    for (let i = 0; i < 60; i++) await a.clock.advanceAsync(700);
    await drain();
    assert.deepEqual(a.slots.completed, image);
    const statuses = a.http.statuses;
    const progress = statuses.filter((s) => String(s).startsWith('downloading'));
    assert.ok(progress.length >= 4, `progress reports: ${statuses.join()}`);
    assert.deepEqual(statuses.slice(-2), ['verifying', 'installed']);
    // The reports up to the last progress one, 5 s apart at least.
    const last = statuses.lastIndexOf(progress[progress.length - 1]);
    for (let i = 1; i <= last; i++) assert.ok(times[i]! - times[i - 1]! >= 5000, `gap ${times[i]! - times[i - 1]!}`);
    const percents = progress.map((s) => Number(/\d+/.exec(String(s))?.[0]));
    assert.deepEqual(
      percents,
      [...percents].sort((x, y) => x - y),
    );
  });

  it('a new desired update cancels the download under way; its image is cancelled', async () => {
    const a = board('1.0.0');
    const b = makeImage(4096, 2);
    const c = makeImage(2048, 3);
    a.http.images.set('b.bin', b);
    a.http.images.set('c.bin', c);
    a.http.properties = propertiesFor('1.1.0', b);
    a.http.drops.add(1);
    await a.updater.start();
    await drain();
    a.updater.offer(propertiesFor('1.2.0', c, 'c.bin'));
    await a.clock.advanceAsync(5000);
    assert.equal(a.slots.cancelled, 1);
    assert.deepEqual(a.slots.completed, c);
    assert.equal(a.slots.restarted, 1);
  });
});
