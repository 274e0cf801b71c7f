/**
 * The firmware itself, with the Moddable SDK's tools (docs/moddable.md). Needs MODDABLE
 * (an SDK with its Linux tools built); skips with the reason otherwise:
 * - `mcconfig -d -m -p lin -t build` builds manifest.json for the desktop simulator;
 * - the build runs in `mcsim` under `xvfb-run` against the local service (port 0,
 *   its database in the scratch folder) and its pin channels' `.reported` states
 *   arrive there;
 * - outage: the service stopped for 20 s and restarted on the same port; the
 *   firmware keeps running and delivers the door records sampled meanwhile;
 * - boot offline: the firmware started while the service is down (from the
 *   cached configuration the first run kept); the records arrive once it is up.
 * Everything lives in one mkdtemp scratch folder (build, simulator preferences,
 * database), removed after the run.
 */
import { strict as assert } from 'node:assert';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startService, type RunningService } from '../../host-sim/service/index.js';
import { describeRecords, doorRecords, DOOR_PERIOD_MS, tally } from './door-records.js';
import { buildFirmware, canSimulate, missingSdk, prefKeys, root, simManifest, simPrefs, SimRun } from './mcsim.js';

/** The scratch folder: made once the SDK is found, removed after. */
let scratch = '';
const OUTAGE_MS = 20_000;

/** A firmware run that never aborted: mcsim still up and no `XS abort` in its log. */
function assertAlive(sim: SimRun): void {
  assert.ok(sim.running, `mcsim ended; log:\n${sim.xsbug.lines.join('\n')}`);
  const abort = sim.xsbug.lines.find((l) => /XS abort|unhandled exception/.test(l));
  assert.equal(abort, undefined, sim.xsbug.lines.join('\n'));
}

/**
 * Waits until every door record sampled over [fromMs, toMs] is at the service
 * (`tally`: as many delivered as sampled); returns the tally and the wait from
 * `sinceMs` to the first record of that window seen and to the whole window, in
 * ms (checked on each simulator event, about once a second). The limit covers
 * the outbox's full-jitter back-off (up to 60 s between attempts).
 */
async function awaitDelivery(
  sim: SimRun,
  url: string,
  fromMs: number,
  toMs: number,
  sinceMs: number,
): Promise<{ firstMs: number; allMs: number; sampled: number; delivered: number; records: string }> {
  let firstMs = -1;
  return sim.until(async () => {
    const held = await doorRecords(url, fromMs - 2 * DOOR_PERIOD_MS, toMs + 2 * DOOR_PERIOD_MS);
    if (firstMs < 0 && held.some((r) => r.t > fromMs && r.t < toMs)) firstMs = Date.now() - sinceMs;
    const counts = tally(held, fromMs, toMs);
    if (counts === undefined || counts.delivered < counts.sampled) return undefined;
    return { firstMs, allMs: Date.now() - sinceMs, ...counts, records: describeRecords(held) };
  }, 150_000);
}

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
    scratch = mkdtempSync(join(tmpdir(), 'dds-agent-mcsim-'));
  });

  after(() => {
    if (scratch !== '') rmSync(scratch, { recursive: true, force: true });
  });

  it('builds manifest.json with mcconfig -d -m -p lin -t build', async () => {
    const soPath = await buildFirmware(join(scratch, 'out-root'), ['serviceUrl=http://127.0.0.1:8080']);
    assert.ok(existsSync(soPath), `no ${soPath}`);
  });

  describe('in mcsim against the local service', () => {
    let service: RunningService | undefined;
    let sim: SimRun | undefined;
    let soPath = '';
    let port = 0;
    const serve = async (): Promise<RunningService> =>
      startService({
        fixture: join(root, 'host-sim', 'service', 'fixtures', 'demo.json'),
        port,
        dbPath: join(scratch, 'service.db'),
      });

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
      service = await serve();
      port = service.port;
      const running = service;
      soPath = await buildFirmware(join(scratch, 'out'), [`serviceUrl=${service.url}`], simManifest(scratch));
      sim = new SimRun(simPrefs(scratch));
      await sim.start(soPath);
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
      console.log(`      preference keys per domain online: ${JSON.stringify(prefKeys(simPrefs(scratch)))}`);
      assert.ok(
        log.lines.some((l) => l.includes('channels configured')),
        log.lines.join('\n'),
      );
      for (const w of wanted) assert.ok(found.includes(w), w);
      assert.ok(
        found.includes('flow.reported'),
        'a modbus channel reports -EOPNOTSUPP until the bus provider is wired',
      );
      assertAlive(sim);
    });

    it('outage: the service stopped for 20 s and restarted; the records sampled meanwhile arrive', async () => {
      assert.ok(sim !== undefined && service !== undefined, 'needs the first case’s run');
      const run = sim;
      await service.close();
      const downAt = Date.now();
      await run.runFor(OUTAGE_MS);
      const upAt = Date.now();
      console.log(
        `      preference keys per domain at the end of the outage: ${JSON.stringify(prefKeys(simPrefs(scratch)))}`,
      );
      assertAlive(run);
      assert.ok(
        run.xsbug.lines.some((l) => /^warn /.test(l)),
        `the failed deliveries are logged as warnings:\n${run.xsbug.lines.slice(-20).join('\n')}`,
      );
      service = await serve();
      const running = service;
      const got = await awaitDelivery(run, service.url, downAt, upAt, upAt);
      console.log(
        `      outage ${upAt - downAt} ms: door records sampled ${got.sampled}, delivered ${got.delivered}; ` +
          `first delivery ${got.firstMs} ms and all ${got.allMs} ms after the service returned; ` +
          `instrument peaks ${JSON.stringify(Object.fromEntries(run.xsbug.peaks))}`,
      );
      assert.equal(got.delivered, got.sampled, `every record sampled meanwhile, once: ${got.records}`);
      assert.ok(await run.until(async () => (running.hub.connectionCount() > 0 ? true : undefined)), 'hub back');
      assertAlive(run);
    });

    it('boots while the service is down (cached configuration); the records arrive once it is up', async () => {
      assert.ok(sim !== undefined && service !== undefined, 'needs the first case’s run');
      await sim.stop();
      await service.close();
      const bootAt = Date.now();
      sim = new SimRun(simPrefs(scratch));
      const run = sim;
      await run.start(soPath, false);
      await run.runFor(OUTAGE_MS);
      const upAt = Date.now();
      assertAlive(run);
      assert.ok(
        run.xsbug.lines.some((l) => l.includes('starting from the cached configuration')),
        run.xsbug.lines.join('\n'),
      );
      service = await serve();
      // mcsim starts in about a second; the first door record comes within a period after.
      const fromMs = bootAt + 2 * DOOR_PERIOD_MS;
      const got = await awaitDelivery(run, service.url, fromMs, upAt, upAt);
      console.log(
        `      boot offline, service up after ${upAt - bootAt} ms: door records sampled ${got.sampled}, ` +
          `delivered ${got.delivered}; first delivery ${got.firstMs} ms and all ${got.allMs} ms after the service ` +
          `came up; instrument peaks ${JSON.stringify(Object.fromEntries(run.xsbug.peaks))}`,
      );
      assert.equal(got.delivered, got.sampled, `every record sampled meanwhile, once: ${got.records}`);
      console.log(`      preference keys per domain after delivery: ${JSON.stringify(prefKeys(simPrefs(scratch)))}`);
      assertAlive(run);
    });
  });
});
