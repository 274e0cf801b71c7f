/**
 * Over-the-air updates of the firmware in mcsim (docs/ota.md; MODDABLE set, with
 * mcsim and xvfb-run; skips with the reason otherwise). Three builds of
 * main-ota.ts: A (1.0.0) and B (1.1.0) against the local service, C (1.2.0)
 * whose service URL reaches nothing. The images the service serves name their
 * build in their first bytes; this test plays the bootloader over the
 * simulator's slot file (sim/ota.js): on each restart it starts the build whose
 * image is in slot `boot`. Shown: A's wrong signature, wrong SHA-256 and
 * truncated image each end `failed <errno>` with A still running; A -> B with
 * the service stopped midway resumes with Range, verifies, installs, and B
 * confirms itself and reports fw-running 1.1.0; C cannot reach the service and
 * rolls back to B, which reports rolled-back.
 */
import assert from 'node:assert/strict';
import { createHash, generateKeyPairSync, sign } from 'node:crypto';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startService, type RunningService } from '../../host-sim/service/index.js';
import { buildFirmware, canSimulate, missingSdk, root, simManifest, simPrefs, SimRun } from './mcsim.js';

/** B's image: large enough that the test sees its download under way (4 KiB per request). */
const size = 600_000;
const admin = { authorization: 'Bearer admin-token-demo', 'content-type': 'application/json' };
const keys = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
const otherKeys = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
// Base64 without padding: mcconfig reads name=value settings.
const fwKey = keys.publicKey.export({ format: 'der', type: 'spki' }).toString('base64').replace(/=+$/, '');

/** An image that names its build, padded to `bytes` with pseudo-random bytes. */
function image(build: string, bytes: number): Buffer {
  const out = Buffer.alloc(bytes);
  let x = build.charCodeAt(0) * 7919;
  for (let i = 0; i < bytes; i++) out[i] = (x = (x * 1103515245 + 12345) >>> 0) >>> 24;
  Buffer.from(`DDS-SIM-IMAGE ${build}\n`).copy(out);
  return out;
}

describe('updates in mcsim (MODDABLE)', function () {
  this.timeout(1_800_000);
  let scratch = '';
  let service: RunningService | undefined;
  let sim: SimRun | undefined;
  let port = 0;
  const builds: Record<string, string> = {};
  const images = (): string => join(scratch, 'images');
  const prefs = (): string => simPrefs(scratch);
  const serve = async (): Promise<RunningService> =>
    startService({
      fixture: join(root, 'host-sim', 'service', 'fixtures', 'demo.json'),
      port,
      dbPath: join(scratch, 'service.db'),
      firmware: { dir: images() },
    });

  async function properties(): Promise<Record<string, unknown>> {
    const r = await fetch(`${service!.url}/api/v1/properties/get?device=demo-001`, { headers: admin });
    return (await r.json()) as Record<string, unknown>;
  }
  async function setProperties(values: Record<string, string>): Promise<void> {
    const body = JSON.stringify({ device: 'demo-001', values });
    const r = await fetch(`${service!.url}/api/v1/properties/set`, { method: 'POST', headers: admin, body });
    assert.equal(r.status, 200);
  }
  /** The four properties of `file` (in the images folder) as version `version`: the SHA-256 and `key`'s signature of `of` (default the file). */
  function desired(version: string, file: string, key = keys.privateKey, of?: Buffer): Record<string, string> {
    const bytes = of ?? readFileSync(join(images(), file));
    return {
      'fw-version': version,
      'fw-url': `${service!.url}/firmware/${file}`,
      'fw-sha256': createHash('sha256').update(bytes).digest('hex'),
      'fw-sig': sign('sha256', bytes, key).toString('base64'),
    };
  }
  /** Resolves once the firmware's log has `count` lines holding `text`. */
  const logged = (text: string, count = 1) =>
    sim!.until(async () => (sim!.xsbug.lines.filter((l) => l.includes(text)).length >= count ? true : undefined));
  const status = async (wanted: (p: Record<string, unknown>) => boolean, limitMs = 120_000) =>
    sim!.until(async () => {
      const p = await properties();
      return wanted(p) ? p : undefined;
    }, limitMs);
  const slots = (): { running: number; boot: number; restart: boolean; slots: Array<{ state: string }> } =>
    JSON.parse(readFileSync(join(prefs(), 'ota-slots.json'), 'utf8')) as never;

  /** The bootloader: waits for the restart the firmware asked for, starts the build of slot `boot`. */
  async function restartIntoBoot(): Promise<string> {
    await sim!.until(async () => (existsSync(join(prefs(), 'ota-slots.json')) && slots().restart ? true : undefined));
    await sim!.stop();
    const s = slots();
    const head = readFileSync(join(prefs(), `ota-slot-${s.boot}.bin`))
      .subarray(0, 20)
      .toString('latin1');
    const build = /^DDS-SIM-IMAGE (\w)/.exec(head)?.[1] ?? '?';
    writeFileSync(join(prefs(), 'ota-slots.json'), JSON.stringify({ ...s, running: s.boot, restart: false }));
    sim = new SimRun(prefs());
    await sim.start(builds[build]!, false);
    return build;
  }

  before(async function () {
    const missing = missingSdk() ?? (canSimulate() ? undefined : 'needs mcsim (GTK 3) and xvfb-run');
    if (missing !== undefined) {
      console.log(`    skipped: ${missing}; set MODDABLE to a Moddable SDK with its Linux tools built`);
      this.skip();
    }
    scratch = mkdtempSync(join(tmpdir(), 'dds-agent-ota-'));
    mkdirSync(images());
    writeFileSync(join(images(), 'b.bin'), image('B', size));
    writeFileSync(join(images(), 'b-short.bin'), image('B', size).subarray(0, 100_000));
    writeFileSync(join(images(), 'c.bin'), image('C', 120_000));
    service = await serve();
    port = service.port;
    process.env.FIRMWARE = 'ota';
    try {
      const manifest = simManifest(scratch);
      const common = [`fwKey=${fwKey}`, 'fwTrialS=30'];
      for (const [build, version, url] of [
        ['A', '1.0.0', service.url],
        ['B', '1.1.0', service.url],
        ['C', '1.2.0', 'http://127.0.0.1:9'],
      ] as const) {
        const so = await buildFirmware(
          join(scratch, 'out'),
          [`serviceUrl=${url}`, `fwVersion=${version}`, ...common],
          manifest,
        );
        copyFileSync(so, (builds[build] = join(scratch, `${build}.so`)));
      }
    } finally {
      delete process.env.FIRMWARE;
    }
  });

  after(async () => {
    await sim?.stop();
    await service?.close();
    if (scratch !== '') rmSync(scratch, { recursive: true, force: true });
  });

  it('A reports fw-running 1.0.0; a wrong signature, a wrong SHA-256 and a truncated image each fail, A still running', async () => {
    sim = new SimRun(prefs());
    await sim.start(builds['A']!);
    await status((p) => p['fw-running'] === '1.0.0' && p['fw-status'] === 'idle');
    await setProperties(desired('1.1.0', 'b.bin', otherKeys.privateKey));
    await status((p) => p['fw-status'] === 'failed EKEYREJECTED');
    await setProperties({ ...desired('1.1.0', 'b.bin'), 'fw-sha256': 'ab'.repeat(32) });
    await status((p) => p['fw-status'] === 'failed EBADMSG');
    // B signed whole, served cut short (another version, so that it is a new update).
    const whole = readFileSync(join(images(), 'b.bin'));
    await setProperties(desired('1.1.1', 'b-short.bin', keys.privateKey, whole));
    await logged('errno="EBADMSG"', 2);
    assert.ok(sim!.xsbug.lines.some((l) => l.includes('update="1.1.1 ') && l.includes('errno="EBADMSG"')));
    const p = await status((q) => q['fw-status'] === 'failed EBADMSG');
    assert.equal(p['fw-running'], '1.0.0');
    assert.equal(slots().boot, 0, 'nothing to boot');
    assert.equal(slots().restart, false);
    assert.ok(sim.running);
  });

  it('A -> B: a download cut midway resumes with Range; B is verified, installed and confirms itself', async () => {
    const before = sim!.xsbug.lines.filter((l) => l.includes('ota: downloading version="1.1.0"')).length;
    await setProperties(desired('1.1.0', 'b.bin'));
    await logged('ota: downloading version="1.1.0"', before + 1);
    const slotFile = join(prefs(), 'ota-slot-1.bin');
    await sim!.until(async () =>
      slots().slots[1]?.state === 'writing' && statSync(slotFile).size > 20_000 ? true : undefined,
    );
    await service!.close();
    const cutAt = statSync(slotFile).size;
    await sim!.runFor(4_000);
    service = await serve();
    const aLog = sim!.xsbug.lines;
    assert.equal(await restartIntoBoot(), 'B');
    // A resumed from the byte it had reached (a Range from there), not from 0.
    const resumes = aLog
      .filter((l) => l.includes('ota: download resumes'))
      .map((l) => Number(/from=(\d+)/.exec(l)?.[1]));
    assert.ok(resumes.length > 0 && resumes.every((from) => from > 0 && from < size), aLog.join('\n'));
    assert.ok(cutAt < size, `cut at ${cutAt} of ${size} bytes`);
    console.log(`      cut at ${cutAt} of ${size} bytes; resumed from ${resumes.join(', ')}`);
    const p = await status((q) => q['fw-running'] === '1.1.0' && q['fw-status'] === 'confirmed');
    assert.equal(p['fw-version'], '1.1.0');
    assert.equal(slots().slots[1]?.state, 'valid');
    assert.equal(readFileSync(slotFile).compare(readFileSync(join(images(), 'b.bin'))), 0, 'the slot holds B whole');
  });

  it('C cannot reach the service: it rolls back to B, which reports rolled-back', async () => {
    await setProperties(desired('1.2.0', 'c.bin'));
    assert.equal(await restartIntoBoot(), 'C');
    assert.equal(await restartIntoBoot(), 'B');
    const p = await status((q) => q['fw-status'] === 'rolled-back');
    assert.equal(p['fw-running'], '1.1.0');
    assert.equal(slots().slots[0]?.state, 'invalid');
  });
});
