/**
 * The firmware over TLS in the desktop simulator (docs/tls.md). Needs MODDABLE (an
 * SDK with its Linux tools built), mcsim, xvfb-run and openssl; skips with the
 * reason otherwise. The local service serves HTTPS/WSS with a certificate of a
 * fresh CA; the CA goes into the firmware as the DER resource `dds-ca.der`
 * named by `caCert` (docs/tls.md), and the firmware must report its pin
 * states and connect to the hub over wss://. The simulator's instrument peaks
 * (heap and stack) are printed and checked against the manifest's heap sizes.
 */
import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startService, type RunningService } from '../../host-sim/service/index.js';
import { generatePki, hasOpenssl } from '../../host-sim/tls/pki.js';
import { buildFirmware, canSimulate, missingSdk, root, simManifest, simPrefs, SimRun } from './mcsim.js';

/** A scratch folder per run (mkdtemp), made once the test runs, removed after it. */
let workDir = '';

function getJson(url: string, ca: string): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const req = request(url, { ca, headers: { Authorization: 'Bearer admin-token-demo' } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (text += d));
      res.on('end', () => {
        try {
          resolve(JSON.parse(text));
        } catch (e) {
          reject(e instanceof Error ? e : new Error(String(e)));
        }
      });
    });
    req.on('error', reject);
    req.end();
  });
}

describe('Moddable firmware over TLS (MODDABLE)', function () {
  this.timeout(600_000);
  let service: RunningService | undefined;
  let sim: SimRun | undefined;

  before(function () {
    const sdk = missingSdk();
    const missing =
      sdk === undefined
        ? canSimulate()
          ? hasOpenssl()
            ? undefined
            : 'openssl is not on PATH (it makes the test CA)'
          : 'needs mcsim (built with GTK 3) and xvfb-run'
        : `${sdk}; set MODDABLE to a Moddable SDK with its Linux tools built to run the firmware over TLS`;
    if (missing !== undefined) {
      console.log(`    skipped: ${missing}`);
      this.skip();
    }
  });

  after(async () => {
    await sim?.stop();
    await service?.close();
    if (workDir !== '') rmSync(workDir, { recursive: true, force: true });
  });

  it('reports states over https:// and connects to the hub over wss:// with the CA as caCert', async () => {
    const pki = generatePki({ ipAddresses: ['127.0.0.1'] });
    // The chain (server, CA): Moddable's verifier matches the subjectAltName on a certificate that has an issuer in the chain.
    service = await startService({
      fixture: join(root, 'host-sim', 'service', 'fixtures', 'demo.json'),
      tls: { cert: pki.certPem + pki.caPem, key: pki.keyPem },
    });
    assert.match(service.url, /^https:\/\/127\.0\.0\.1:\d+$/);
    // docs/tls.md: the CA in DER as a resource, named by caCert.
    workDir = mkdtempSync(join(tmpdir(), 'dds-agent-tls-'));
    writeFileSync(join(workDir, 'ca.pem'), pki.caPem);
    execFileSync('openssl', [
      'x509',
      '-in',
      join(workDir, 'ca.pem'),
      '-outform',
      'der',
      '-out',
      join(workDir, 'dds-ca.der'),
    ]);
    // The root manifest, the CA resource, and simulator preferences in the scratch folder.
    const manifest = simManifest(workDir, { resources: { '*': [join(workDir, 'dds-ca')] } });
    const soPath = await buildFirmware(
      join(workDir, 'out'),
      [`serviceUrl=${service.url}`, 'caCert=dds-ca.der'],
      manifest,
    );
    sim = new SimRun(simPrefs(workDir));
    await sim.start(soPath);
    const wanted = ['temperature.reported', 'battery.reported', 'door.reported', 'relay.reported', 'dimmer.reported'];
    const log = sim.xsbug;
    const running = service;
    const url = `${service.url}/api/v1/states/read/last?device=demo-001`;
    const found = await sim.until(async () => {
      const states = (await getJson(url, pki.caPem)) as Array<{ channel: string }>;
      const names = states.map((s) => s.channel.slice(s.channel.indexOf(':') + 1));
      return wanted.every((w) => names.includes(w)) && running.hub.connectionCount() > 0 ? names : undefined;
    });
    for (const w of wanted) assert.ok(found.includes(w), w);
    // The service listens with TLS only: a hub connection on it is a wss:// one.
    assert.equal(service.wsUrl, service.url.replace(/^https/, 'wss'));
    assert.ok(running.hub.connectionCount() > 0, 'the hub is connected over wss://');
    assert.ok(!log.lines.some((l) => l.includes('device-token-demo-001')), 'the token is never logged');
    const peaks = Object.fromEntries(log.peaks);
    console.log(`    instrument peaks over TLS: ${JSON.stringify(peaks)}`);
    // creation.stack is in slots; a slot is 32 bytes in the 64-bit simulator (16 on the ESP32).
    const stackSlots = (
      JSON.parse(readFileSync(join(root, 'manifest.json'), 'utf8')) as { creation: { stack: number } }
    ).creation.stack;
    const stackUsed = peaks['Stack used'] ?? 0;
    assert.ok(stackUsed > 0, `no instrument samples: ${JSON.stringify(peaks)}`);
    assert.ok(
      stackUsed / 32 <= stackSlots,
      `the TLS run used ${stackUsed / 32} stack slots, over creation.stack ${stackSlots}`,
    );
  });
});
