/**
 * The firmware's connections over TLS in the desktop simulator (docs/moddable.md, "The network"; docs/tls.md).
 * Needs MODDABLE (an SDK with its Linux tools built), mcsim, xvfb-run and openssl; skips with the reason
 * otherwise. The local service serves HTTPS/WSS only (a fresh CA, given to the firmware as `caCert`) and counts
 * the connections it accepts and the TLS sessions resumed (host-sim/service/http/connections.ts):
 * - steady: 5 minutes (DDS_STEADY_MS to shorten a local run; DDS_TLS_RESUMPTION=0 offers no resumption) of the demo device open at most 3 TLS
 *   connections, and every door record sampled arrives (the witness of test/moddable/door-records.ts); prints
 *   the mcsim CPU per record stored (/proc, 10 ms ticks) and records per connection;
 * - reconnects: the service drops every connection, five times with session resumption offered and five
 *   times without; prints the CPU and the heap peaks of each kind against a quiet window;
 * - outage: the service stopped for 20 s and restarted; every record arrives, then 30 s more are carried by
 *   the connections open (no new one, one HTTP and one hub connection);
 * - boot offline: the firmware started while the service is down; the same.
 */
import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startService, type RunningService } from '../../host-sim/service/index.js';
import { generatePki, hasOpenssl } from '../../host-sim/tls/pki.js';
import { describeRecords, doorRecords, DOOR_PERIOD_MS, storedRecords, tally, type GetJson } from './door-records.js';
import { buildFirmware, canSimulate, missingSdk, root, simManifest, simPrefs, SimRun } from './mcsim.js';

const STEADY_MS = Number(process.env.DDS_STEADY_MS ?? 300_000);
const OUTAGE_MS = 20_000;

let scratch = '';
let caPem = '';

const getJson: GetJson = (url, headers) =>
  new Promise((resolve, reject) => {
    const req = request(url, { ca: caPem, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (text += d));
      res.on('end', () => {
        try {
          resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) as unknown });
        } catch (e) {
          reject(e instanceof Error ? e : new Error(String(e)));
        }
      });
    });
    req.on('error', reject);
    req.end();
  });

function assertAlive(sim: SimRun): void {
  assert.ok(sim.running, `mcsim ended; log:\n${sim.xsbug.lines.join('\n')}`);
  const abort = sim.xsbug.lines.find((l) => /XS abort|unhandled exception/.test(l));
  assert.equal(abort, undefined, sim.xsbug.lines.join('\n'));
}

/** Waits until every door record sampled over [fromMs, toMs] is at the service; the tally. */
function awaitDelivery(sim: SimRun, url: string, fromMs: number, toMs: number) {
  return sim.until(async () => {
    const held = await doorRecords(url, fromMs - 2 * DOOR_PERIOD_MS, toMs + 2 * DOOR_PERIOD_MS, getJson);
    const counts = tally(held, fromMs, toMs);
    if (counts === undefined || counts.delivered < counts.sampled) return undefined;
    return { ...counts, records: describeRecords(held) };
  }, 150_000);
}

describe('Moddable firmware: one kept-alive connection over TLS (MODDABLE)', function () {
  this.timeout(STEADY_MS + 900_000);
  let service: RunningService | undefined;
  let sim: SimRun | undefined;
  let soPath = '';
  let port = 0;
  // The certificate chain and key of the first start, kept across restarts.
  let serverCert = '';
  let serverKey = '';
  const serve = (): Promise<RunningService> =>
    startService({
      fixture: join(root, 'host-sim', 'service', 'fixtures', 'demo.json'),
      port,
      dbPath: join(scratch, 'service.db'),
      tls: { cert: serverCert, key: serverKey },
    });

  /** After delivery: 30 s more on the connections already open, no new one; one HTTP and one hub connection. */
  async function carriedByTwo(run: SimRun, svc: RunningService): Promise<void> {
    await run.runFor(5_000);
    const opened = svc.connections.accepted;
    await run.runFor(30_000);
    assert.equal(svc.connections.accepted, opened, 'no new connection in 30 s');
    assert.equal(svc.connections.open, 2, 'one HTTP and one hub connection open');
    assert.ok(svc.hub.connectionCount() === 1, 'one hub connection');
  }

  before(function () {
    const sdk = missingSdk();
    const missing =
      sdk !== undefined
        ? `${sdk}; set MODDABLE to a Moddable SDK with its Linux tools built`
        : !canSimulate()
          ? 'needs mcsim (built with GTK 3) and xvfb-run'
          : !hasOpenssl()
            ? 'openssl is not on PATH (it makes the test CA)'
            : undefined;
    if (missing !== undefined) {
      console.log(`    skipped: ${missing}`);
      this.skip();
    }
    scratch = mkdtempSync(join(tmpdir(), 'dds-agent-keepalive-'));
  });

  after(async () => {
    await sim?.stop();
    await service?.close();
    if (scratch !== '') rmSync(scratch, { recursive: true, force: true });
  });

  it(`steady over https: at most 3 TLS connections in ${STEADY_MS / 1000} s, every record delivered`, async () => {
    const pki = generatePki({ ipAddresses: ['127.0.0.1'] });
    caPem = pki.caPem;
    serverCert = pki.certPem + pki.caPem;
    serverKey = pki.keyPem;
    service = await serve();
    port = service.port;
    // DDS_TLS_RESUMPTION=0: every handshake a full one, as before the service offered resumption (to measure).
    service.connections.resumption = process.env.DDS_TLS_RESUMPTION !== '0';
    writeFileSync(join(scratch, 'ca.pem'), pki.caPem);
    execFileSync('openssl', [
      'x509',
      '-in',
      join(scratch, 'ca.pem'),
      '-outform',
      'der',
      '-out',
      join(scratch, 'dds-ca.der'),
    ]);
    const manifest = simManifest(scratch, { resources: { '*': [join(scratch, 'dds-ca')] } });
    soPath = await buildFirmware(join(scratch, 'out'), [`serviceUrl=${service.url}`, 'caCert=dds-ca.der'], manifest);
    sim = new SimRun(simPrefs(scratch));
    await sim.start(soPath);
    const running = service;
    await sim.until(async () =>
      running.hub.connectionCount() > 0 && storedRecords(join(scratch, 'service.db')) > 0 ? true : undefined,
    );
    await sim.runFor(10_000);
    const [fromMs, cpu0, rows0] = [Date.now(), sim.cpuMs() ?? 0, storedRecords(join(scratch, 'service.db'))];
    await sim.runFor(STEADY_MS);
    const [toMs, cpu1, rows1] = [Date.now(), sim.cpuMs() ?? 0, storedRecords(join(scratch, 'service.db'))];
    const counts = await awaitDelivery(sim, service.url, fromMs, toMs);
    const { tls, resumed, accepted } = service.connections;
    const records = rows1 - rows0;
    const figures = {
      steadyMs: toMs - fromMs,
      tlsConnections: tls,
      resumed,
      accepted,
      records,
      recordsPerConnection: +(records / Math.max(1, tls)).toFixed(1),
      cpuMs: cpu1 - cpu0,
      cpuMsPerRecord: +((cpu1 - cpu0) / Math.max(1, records)).toFixed(2),
      door: counts,
    };
    console.log(`      steady over https: ${JSON.stringify({ ...figures, door: undefined })}`);
    assert.equal(counts.delivered, counts.sampled, `door records: ${counts.records}`);
    assert.ok(tls <= 3, `${tls} TLS connections since boot (at most 3)`);
    assert.ok(records > 0, 'records were stored');
    assertAlive(sim);
  });

  it('reconnects: a resumed TLS handshake against a full one (CPU and heap peaks)', async () => {
    assert.ok(sim !== undefined && service !== undefined, "needs the first case's run");
    const run = sim;
    const svc = service;
    const peak = (name: string): number => run.xsbug.peaks.get(name) ?? 0;
    /** CPU (ms), handshakes and heap peaks over 10 s, after dropping every connection when `drop`. */
    const window = async (drop: boolean) => {
      run.xsbug.peaks.clear();
      const [cpu0, tls0, resumed0] = [run.cpuMs() ?? 0, svc.connections.tls, svc.connections.resumed];
      if (drop) svc.connections.dropAll();
      await run.runFor(10_000);
      return {
        cpuMs: (run.cpuMs() ?? 0) - cpu0,
        handshakes: svc.connections.tls - tls0,
        resumed: svc.connections.resumed - resumed0,
        chunkPeak: peak('Chunk used'),
        slotPeak: peak('Slot used'),
      };
    };
    const result: Record<string, unknown> = {};
    for (const mode of ['quiet', 'full', 'resumed'] as const) {
      svc.connections.resumption = mode === 'resumed';
      const rounds: Awaited<ReturnType<typeof window>>[] = [];
      for (let i = 0; i < 5; i++) rounds.push(await window(mode !== 'quiet'));
      const sum = (k: 'cpuMs' | 'handshakes' | 'resumed') => rounds.reduce((a, r) => a + r[k], 0);
      const max = (k: 'chunkPeak' | 'slotPeak') => Math.max(...rounds.map((r) => r[k]));
      result[mode] = {
        cpuMs: sum('cpuMs'),
        handshakes: sum('handshakes'),
        resumed: sum('resumed'),
        chunkPeak: max('chunkPeak'),
        slotPeak: max('slotPeak'),
      };
    }
    svc.connections.resumption = true;
    const q = result.quiet as { cpuMs: number };
    const perHandshake = (m: string) => {
      const r = result[m] as { cpuMs: number; handshakes: number };
      return +((r.cpuMs - q.cpuMs) / Math.max(1, r.handshakes)).toFixed(1);
    };
    console.log(
      `      reconnects (5 x 10 s each; peaks sampled once a second): ${JSON.stringify(result)}; ` +
        `CPU per handshake over quiet: full ${perHandshake('full')} ms, resumed ${perHandshake('resumed')} ms`,
    );
    const resumed = result.resumed as { handshakes: number; resumed: number };
    assert.ok(resumed.handshakes >= 5, 'the firmware reconnected after each drop');
    assert.ok(resumed.resumed >= 5, `sessions resumed: ${resumed.resumed} of ${resumed.handshakes}`);
    assert.equal((result.full as { resumed: number }).resumed, 0);
    assertAlive(run);
  });

  it('outage over https: 20 s down; every record arrives, then one HTTP and one hub connection', async () => {
    assert.ok(sim !== undefined && service !== undefined, "needs the first case's run");
    const run = sim;
    await run.runFor(5_000);
    await service.close();
    const downAt = Date.now();
    await run.runFor(OUTAGE_MS);
    const upAt = Date.now();
    service = await serve();
    const counts = await awaitDelivery(run, service.url, downAt, upAt);
    assert.equal(counts.delivered, counts.sampled, counts.records);
    await run.until(async () => (service!.hub.connectionCount() > 0 ? true : undefined));
    await carriedByTwo(run, service);
    console.log(
      `      outage over https: ${JSON.stringify({ ...counts, records: undefined, ...service.connections })}`,
    );
    assertAlive(run);
  });

  it('boot with the service down over https: every record arrives, then one HTTP and one hub connection', async () => {
    assert.ok(sim !== undefined && service !== undefined, "needs the first case's run");
    await sim.stop();
    await service.close();
    sim = new SimRun(simPrefs(scratch));
    const bootAt = Date.now();
    await sim.start(soPath, false);
    await sim.runFor(OUTAGE_MS);
    const upAt = Date.now();
    assert.ok(
      sim.xsbug.lines.some((l) => l.includes('starting from the cached configuration')),
      sim.xsbug.lines.join('\n'),
    );
    service = await serve();
    const counts = await awaitDelivery(sim, service.url, bootAt + 2 * DOOR_PERIOD_MS, upAt);
    assert.equal(counts.delivered, counts.sampled, counts.records);
    const svc = service;
    await sim.until(async () => (svc.hub.connectionCount() > 0 ? true : undefined));
    await carriedByTwo(sim, service);
    console.log(
      `      boot offline over https: ${JSON.stringify({ ...counts, records: undefined, ...service.connections })}`,
    );
    assertAlive(sim);
  });
});
