/** The update state machine: A -> B downloaded, verified, installed, confirmed on trial, or rolled back. */
import { assert } from '../../support/assert.js';
import { board, drain, makeImage, propertiesFor } from './harness.js';

describe('ota updater: install, trial and rollback', () => {
  it('downloads B in ranges, verifies it, completes the slot, reports and restarts', async () => {
    const a = board('1.0.0');
    const image = makeImage(5000, 2);
    a.http.images.set('b.bin', image);
    a.http.properties = { name: 'x', ...propertiesFor('1.1.0', image) };
    await a.updater.start();
    await drain();
    assert.deepEqual(a.http.ranges, [
      'bytes=0-1023',
      'bytes=1024-2047',
      'bytes=2048-3071',
      'bytes=3072-4095',
      'bytes=4096-4999',
    ]);
    assert.deepEqual(a.slots.completed, image);
    assert.equal(a.slots.restarted, 1);
    assert.equal(a.slots.cancelled, 0);
    // At start (idle); the progress waits 5 s after that report and gives way to verifying and installed.
    assert.deepEqual(a.http.statuses, ['idle', 'verifying', 'installed']);
    assert.ok(a.http.reported.every((v) => v['fw-running'] === '1.0.0'));
    // The image request carries the device's token: the image is on its own service.
    const imageRequest = a.http.requests.find((r) => r.url.includes('/firmware/'));
    assert.equal(imageRequest?.headers['authorization'], 'Bearer device-token');
    assert.equal(imageRequest?.binary, true);
    a.logger.assertNoErrors();
  });

  it('B on trial confirms itself once a batch is delivered and the hub connected, and reports confirmed', async () => {
    const a = board('1.0.0');
    const image = makeImage(3000, 2);
    a.http.images.set('b.bin', image);
    a.http.properties = propertiesFor('1.1.0', image);
    await a.updater.start();
    await drain();
    // The bootloader starts B on trial.
    a.slots.current = 'trial';
    const b = board('1.1.0', a);
    await b.updater.start();
    await drain();
    assert.equal(b.updater.status, 'installed');
    b.updater.delivered();
    assert.equal(b.slots.confirmed, 0, 'not before the hub connected');
    b.updater.hubConnected();
    await drain();
    assert.equal(b.slots.confirmed, 1);
    assert.equal(b.updater.status, 'confirmed');
    assert.equal(b.store.get('ota/pending'), undefined);
    const last = b.http.reported[b.http.reported.length - 1];
    assert.deepEqual(last, { 'fw-running': '1.1.0', 'fw-status': 'confirmed' });
    // The desired version is the running one: nothing more is downloaded.
    assert.equal(b.http.ranges.length, 3);
    // Nothing rolls back later.
    await b.clock.advanceAsync(600_000);
    assert.equal(b.slots.rolledBack, 0);
  });

  it('C that cannot deliver within the trial time rolls back; B then reports rolled-back and does not retry C', async () => {
    const b = board('1.1.0');
    const image = makeImage(2500, 3);
    b.http.images.set('c.bin', image);
    b.http.properties = propertiesFor('1.2.0', image, 'c.bin');
    await b.updater.start();
    await drain();
    assert.equal(b.slots.restarted, 1);
    b.slots.current = 'trial';
    const c = board('1.2.0', b, { trialMs: 60_000 });
    await c.updater.start();
    c.updater.hubConnected(); // connected, but no batch delivered
    await c.clock.advanceAsync(59_999);
    assert.equal(c.slots.rolledBack, 0);
    await c.clock.advanceAsync(1);
    assert.equal(c.slots.rolledBack, 1);
    assert.equal(c.slots.confirmed, 0);
    assert.ok(c.logger.find('error', 'trial failed').length === 1);
    // The bootloader returns to B, valid.
    c.slots.current = 'valid';
    const requestsBefore = c.http.ranges.length;
    const b2 = board('1.1.0', c);
    await b2.updater.start();
    await drain();
    assert.equal(b2.updater.status, 'rolled-back');
    assert.deepEqual(b2.http.reported[b2.http.reported.length - 1], {
      'fw-running': '1.1.0',
      'fw-status': 'rolled-back',
    });
    assert.equal(b2.http.ranges.length, requestsBefore, 'C is not downloaded again');
    // Another restart still does not retry C, and still says rolled-back.
    const b3 = board('1.1.0', b2);
    await b3.updater.start();
    await drain();
    assert.equal(b3.http.ranges.length, requestsBefore);
    assert.equal(b3.updater.status, 'rolled-back');
    // A new build D (other properties) is installed again.
    const d = makeImage(1500, 4);
    b3.http.images.set('d.bin', d);
    b3.updater.offer(propertiesFor('1.3.0', d, 'd.bin'));
    await drain();
    assert.deepEqual(b3.slots.completed, d);
  });

  it('acts on a Notify carrying only the changed properties, once all four are set', async () => {
    const a = board('1.0.0');
    const image = makeImage(1200, 5);
    a.http.images.set('b.bin', image);
    await a.updater.start();
    const p = propertiesFor('1.1.0', image);
    a.updater.offer({ 'fw-url': p['fw-url'], 'fw-sha256': p['fw-sha256'], other: 3 });
    a.updater.offer({ 'fw-sig': p['fw-sig'] });
    await drain();
    assert.equal(a.http.ranges.length, 0, 'fw-version still unset');
    a.updater.offer({ 'fw-version': '1.1.0' });
    await drain();
    assert.deepEqual(a.slots.completed, image);
  });

  it('never downgrades unless the lower version is pinned with "="', async () => {
    const b = board('1.1.0');
    const image = makeImage(1000, 6);
    b.http.images.set('a.bin', image);
    b.http.properties = propertiesFor('1.0.0', image, 'a.bin');
    await b.updater.start();
    await drain();
    assert.equal(b.http.ranges.length, 0);
    assert.equal(b.updater.status, 'failed EPERM');
    b.updater.offer({ 'fw-version': '=1.0.0' });
    await drain();
    assert.deepEqual(b.slots.completed, image);
    assert.equal(b.updater.status, 'installed');
  });

  it('reports unsupported where the host cannot install images, and idle when nothing is asked', async () => {
    const n = board('0.1.0', undefined, { image: undefined });
    await n.updater.start();
    await drain();
    assert.deepEqual(n.http.reported, [{ 'fw-running': '0.1.0', 'fw-status': 'idle' }]);
    n.updater.offer(propertiesFor('0.2.0', makeImage(10)));
    await drain();
    assert.equal(n.updater.status, 'unsupported');
    assert.equal(n.http.ranges.length, 0);
    n.updater.offer({ 'fw-version': '0.1.0' });
    await drain();
    assert.equal(n.updater.status, 'idle');
  });

  it('a failed status report is tried again later; the latest status wins', async () => {
    const a = board('1.0.0', undefined, { status: { retryMs: 10_000 } });
    a.http.setStatus = 500;
    await a.updater.start();
    await drain();
    assert.equal(a.http.reported.length, 0);
    assert.equal(a.logger.find('warn', 'status not reported').length, 1);
    a.http.setStatus = undefined;
    await a.clock.advanceAsync(10_000);
    assert.deepEqual(a.http.reported, [{ 'fw-running': '1.0.0', 'fw-status': 'idle' }]);
  });
});

describe('ota updater: a host stops it', () => {
  it('a stopped run on trial neither rolls back nor confirms: the next start decides', async () => {
    const a = board('1.0.0');
    const image = makeImage(2000, 7);
    a.http.images.set('b.bin', image);
    a.http.properties = propertiesFor('1.1.0', image);
    await a.updater.start();
    await drain();
    a.slots.current = 'trial';
    const b = board('1.1.0', a, { trialMs: 60_000 });
    await b.updater.start();
    await drain();
    assert.equal(b.updater.status, 'installed');
    b.updater.stop();
    await b.clock.advanceAsync(120_000);
    b.updater.delivered();
    b.updater.hubConnected();
    await drain();
    assert.equal(b.slots.rolledBack, 0, 'the trial timer of a stopped run is cleared');
    assert.equal(b.slots.confirmed, 0);
    assert.equal(b.slots.restarted, 1, 'only the restart into B');
    // The next start of B finds it still on trial and tries it again.
    const b2 = board('1.1.0', b, { trialMs: 60_000 });
    await b2.updater.start();
    await b2.clock.advanceAsync(60_000);
    assert.equal(b2.slots.rolledBack, 1);
  });

  it('stopped while its start-up properties read is out, it downloads and restarts nothing', async () => {
    const a = board('1.0.0');
    const image = makeImage(2000, 8);
    a.http.images.set('b.bin', image);
    a.http.properties = propertiesFor('1.1.0', image);
    const started = a.updater.start();
    a.updater.stop();
    await started;
    await drain();
    await a.clock.advanceAsync(60_000);
    assert.equal(a.http.ranges.length, 0);
    assert.equal(a.slots.restarted, 0);
    assert.equal(a.updater.status, 'idle');
  });
});
