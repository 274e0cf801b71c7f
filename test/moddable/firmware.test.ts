/**
 * The firmware itself, with the Moddable SDK's tools (docs/moddable.md). Needs MODDABLE
 * (an SDK with its Linux tools built); skips with the reason otherwise:
 * - `mcconfig -d -m -p lin -t build` builds manifest.json for the desktop simulator;
 * - the build runs in `mcsim` under `xvfb-run` against the local service (port 0)
 *   and its pin channels' `.reported` states arrive there.
 */
import { strict as assert } from 'node:assert';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startService, type RunningService } from '../../host-sim/service/index.js';
import { buildFirmware, canSimulate, missingSdk, root, SimRun } from './mcsim.js';

/** The build folder: a scratch folder per run (mkdtemp), made once the SDK is found, removed after. */
let outDir = '';

describe('Moddable firmware (MODDABLE)', function () {
  this.timeout(600_000);

  before(function () {
    const missing = missingSdk();
    if (missing !== undefined) {
      console.log(
        `    skipped: ${missing}; ` +
          'set MODDABLE to a Moddable SDK with its Linux tools built to build and run the firmware',
      );
      this.skip();
    }
    outDir = mkdtempSync(join(tmpdir(), 'dds-agent-mcconfig-'));
  });

  after(() => {
    if (outDir !== '') rmSync(outDir, { recursive: true, force: true });
  });

  it('builds manifest.json with mcconfig -d -m -p lin -t build', async () => {
    const soPath = await buildFirmware(outDir, ['serviceUrl=http://127.0.0.1:8080']);
    assert.ok(existsSync(soPath), `no ${soPath}`);
  });

  describe('in mcsim against the local service', () => {
    let service: RunningService | undefined;
    let sim: SimRun | undefined;

    before(function () {
      if (!canSimulate()) {
        console.log('    skipped: needs mcsim (built from the SDK with GTK 3) and xvfb-run');
        this.skip();
      }
    });

    after(async () => {
      await sim?.stop();
      await service?.close();
    });

    it('reports the pin channels of the demo device and connects to the hub', async () => {
      service = await startService({ fixture: join(root, 'host-sim', 'service', 'fixtures', 'demo.json') });
      const running = service;
      sim = new SimRun();
      await sim.start(await buildFirmware(outDir, [`serviceUrl=${service.url}`]));
      const url = `${service.url}/api/v1/states/read/last?device=demo-001`;
      const wanted = ['temperature.reported', 'battery.reported', 'door.reported', 'relay.reported', 'dimmer.reported'];
      const log = sim.xsbug;
      const found = await sim.until(async () => {
        const r = await fetch(url, { headers: { Authorization: 'Bearer admin-token-demo' } });
        const states = (await r.json()) as Array<{ channel: string }>;
        const names = states.map((s) => s.channel.slice(s.channel.indexOf(':') + 1));
        return wanted.every((w) => names.includes(w)) && running.hub.connectionCount() > 0 ? names : undefined;
      });
      // The plain run's figures, to compare with firmware-tls.test.ts (docs/tls.md).
      console.log(`      instrument peaks over plain HTTP: ${JSON.stringify(Object.fromEntries(log.peaks))}`);
      assert.ok(
        log.lines.some((l) => l.includes('channels configured')),
        log.lines.join('\n'),
      );
      for (const w of wanted) assert.ok(found.includes(w), w);
      assert.ok(
        found.includes('flow.reported'),
        'a modbus channel reports -EOPNOTSUPP until the bus provider is wired',
      );
    });
  });
});
