/**
 * 32 channels start offline in mcsim (docs/moddable.md, "Flashing an ESP32": storage): the firmware built as
 * for the heap runs (heap-run.ts: `main` preloaded, the board's preference module, the service TLS-only),
 * heaps growing, boots against the service with 32 analog channels and caches their configuration (8,732 B of
 * JSON, over the store's former 8,000 B); then boots again from the same preferences with the service stopped:
 * it starts from the cached configuration with all 32 channels and does not abort, checked when its channels
 * are configured. Once, a few seconds later (refused connections going on), mcsim crashed (exit 139); the cause
 * was not traced (the same lin socket module crashed in socketDownUseCount in the heap runs, heap-esp32-boot).
 * Skips without MODDABLE, mcsim, xvfb-run or openssl. About a minute.
 */
import { strict as assert } from 'node:assert';
import { join } from 'node:path';
import { startService } from '../../host-sim/service/index.js';
import { fixture, heapSkipReason, manifest, pki } from './heap-run.js';
import { buildFirmware, SimRun } from './mcsim.js';
import { suiteScratch } from './suite-scratch.js';

const skip = heapSkipReason();

describe('32 channels start offline (mcsim)', function () {
  this.timeout(900_000);
  const dir = suiteScratch('dds-offline-32-', skip);

  it('caches the configuration of 32 channels online, then boots offline from it with all 32', async () => {
    const tls = pki(dir());
    const service = await startService({
      fixture: fixture(dir(), 32),
      tls: { cert: tls.certPem + tls.caPem, key: tls.keyPem },
    });
    let up = true;
    const prefs = join(dir(), 'prefs');
    const online = new SimRun(prefs);
    const offline = new SimRun(prefs);
    const aborts = (sim: SimRun): string[] => sim.xsbug.lines.filter((l) => /XS abort|allocation: failed/i.test(l));
    try {
      const soPath = await buildFirmware(
        join(dir(), 'out'),
        [`serviceUrl=${service.url}`],
        manifest(dir(), undefined, true),
      );
      await online.start(soPath);
      const said = (sim: SimRun, text: string): boolean => sim.xsbug.lines.some((l) => l.includes(text));
      await online.until(() => Promise.resolve(said(online, 'channels configured channels=32') || undefined), 180_000);
      // The configuration is cached before its channels are built (config-follower.ts), so before that line.
      assert.ok(!said(online, 'not cached'), online.xsbug.lines.join('\n'));
      assert.deepEqual(aborts(online), []);
      await online.stop();
      await service.close();
      up = false;
      await offline.start(soPath, false);
      await offline.until(
        () => Promise.resolve(said(offline, 'channels configured channels=32') || undefined),
        180_000,
      );
      const log = offline.xsbug.lines.join('\n');
      assert.ok(said(offline, 'starting from the cached configuration'), log);
      assert.deepEqual(aborts(offline), [], log);
      assert.ok(offline.running, `mcsim ended: ${offline.ended}`);
    } finally {
      await online.stop();
      await offline.stop();
      if (up) await service.close();
    }
  });
});
