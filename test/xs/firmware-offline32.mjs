// 32 channels start offline (docs/moddable.md, "Storage"): the firmware on XS
// with the fake host modules reads the configuration of 32 analog channels
// (8.7 KB of JSON, over the store's former 8,000 B) from the local service,
// caches it in the fake NVS, and boots again with the service down: it starts
// from the cached configuration with all 32 channels. The fake NVS holds what a
// default 24 KiB partition can (5 of its 6 pages: one stays free for NVS's own
// compaction, 126 entries of 32 B each: 20,160 B).
import { strict as assert } from 'node:assert';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FirmwareRun, linConfig } from './firmware-host.mjs';
import { assertHealthy, clock, manifest, root } from './firmware-support.mjs';

const { startService } = await import(join(root, 'build', 'host-sim', 'service', 'index.js'));
const { analogChannels } = await import(join(root, 'build', 'test', 'moddable', 'heap-run.js'));
const NVS_BYTES = 5 * 126 * 32;

/** The demo fixture with demo-001's product holding 32 analog inputs and no bus, in `dir`. */
function fixture(dir) {
  const demo = JSON.parse(readFileSync(join(root, 'host-sim', 'service', 'fixtures', 'demo.json'), 'utf8'));
  Object.assign(demo.products[0], { buses: [], channels: analogChannels(32) });
  const file = join(dir, 'fixture-32.json');
  writeFileSync(file, JSON.stringify(demo));
  return file;
}

export const offline32 = [
  [
    'caches the configuration of 32 channels (8.7 KB) and boots offline from it with all 32',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'dds-firmware-32-'));
      const svc = await startService({ fixture: fixture(dir), port: 0, dbPath: join(dir, 'service.db') });
      const { port } = svc;
      const online = new FirmwareRun({ flavor: 'lin', clock, capacity: NVS_BYTES });
      let offline;
      let up = true;
      let running = false;
      try {
        running = true;
        await online.start(false, linConfig(manifest, { serviceUrl: svc.url }));
        const configured = () => online.logs.some((l) => l.includes('channels configured channels=32'));
        assert.ok(await online.until(configured, 60_000), online.logs.slice(-20).join('\n'));
        assert.deepEqual(
          online.logs.filter((l) => l.includes('not cached')),
          [],
          'the configuration is cached',
        );
        running = false;
        await online.stop();
        up = false;
        await svc.close();
        offline = new FirmwareRun({ flavor: 'esp32', clock, flash: online.flash, capacity: NVS_BYTES });
        await offline.start(false, linConfig(manifest, { serviceUrl: `http://127.0.0.1:${port}` }));
        await offline.runFor(10_000);
        const started = offline.logs.findIndex((l) => l.includes('starting from the cached configuration'));
        assert.ok(started >= 0, offline.logs.slice(-20).join('\n'));
        assert.ok(
          offline.logs.some((l) => l.includes('channels configured channels=32')),
          offline.logs.slice(-20).join('\n'),
        );
        assertHealthy(offline);
        const largest = Math.max(...[...online.flash.values()].map((v) => v.buffer?.length ?? 0));
        return `largest NVS value ${largest} B, NVS modelled at ${NVS_BYTES} B`;
      } finally {
        await offline?.stop();
        if (running) await online.stop();
        if (up) await svc.close();
        rmSync(dir, { recursive: true, force: true });
      }
    },
  ],
];
