/**
 * Setup mode in the desktop simulator (decisions 11; docs/moddable.md,
 * "Provisioning a board"), with the Moddable SDK's tools. Needs MODDABLE (an
 * SDK with its Linux tools built), mcsim and xvfb-run; skips with the reason
 * otherwise. The provisionable firmware (`npm run bundle`, main-setup.ts) built
 * with no token: it enters setup mode and prints its code; a wrong code is 401;
 * a wrong token through `npm run provision` is 422 with nothing stored, and a
 * restart is still in setup mode (a new code); the right settings through
 * `npm run provision` are 200 and states reach the local service without a
 * restart; a second boot starts the agent directly; the setup button held at
 * boot (the simulator's pulled-up input, `sim`/`hold`) enters setup mode, held
 * 5 s it is a factory reset. One mkdtemp scratch folder, removed after.
 */
import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startService, type RunningService } from '../../host-sim/service/index.js';
import { buildFirmware, canSimulate, missingSdk, root, simManifest, simPrefs, SimRun } from './mcsim.js';

const TOKEN = 'device-token-demo-001';
const ADMIN = { authorization: 'Bearer admin-token-demo' };

/** A port free right now (the simulator's setupPort is fixed at build time). */
function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

function provision(args: string[], env: Record<string, string>): Promise<{ code: number | null; out: string }> {
  const child = spawn(process.execPath, [join(root, 'bin', 'dds-provision.mjs'), ...args], {
    env: { ...process.env, DDS_WIFI_PASSWORD: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (out += c.toString()));
  return new Promise((done) => child.once('close', (code) => done({ code, out })));
}

describe('Moddable firmware: setup mode in mcsim (MODDABLE)', function () {
  this.timeout(900_000);
  let scratch = '';
  let service: RunningService | undefined;
  let sim: SimRun | undefined;
  let soPath = '';
  let setupPort = 0;
  let prefs = '';

  before(async function () {
    const missing = missingSdk() ?? (canSimulate() ? undefined : 'no mcsim or xvfb-run');
    if (missing !== undefined) {
      console.log(`    skipped: ${missing}; set MODDABLE to a Moddable SDK with its Linux tools built`);
      this.skip();
    }
    scratch = mkdtempSync(join(tmpdir(), 'dds-agent-setup-'));
    prefs = simPrefs(scratch);
    service = await startService({
      fixture: join(root, 'host-sim', 'service', 'fixtures', 'demo.json'),
      port: 0,
      dbPath: join(scratch, 'service.db'),
    });
    setupPort = await freePort();
    // The default bundle (main-setup.ts); no token in the image; the setup button on pin 0.
    soPath = await buildFirmware(
      join(scratch, 'out'),
      ['token=', `setupPort=${setupPort}`, 'setupPin=0', 'serviceUrl=http://127.0.0.1:1'],
      simManifest(scratch),
    );
  });

  afterEach(async () => {
    await sim?.stop();
    sim = undefined;
  });

  after(async () => {
    await service?.close();
    if (scratch !== '') rmSync(scratch, { recursive: true, force: true });
  });

  const board = (): string => `http://127.0.0.1:${setupPort}`;

  async function boot(fresh: boolean): Promise<SimRun> {
    sim = new SimRun(prefs);
    await sim.start(soPath, fresh);
    return sim;
  }

  /** The code of the `setup code: <code>` line, once the setup server answers. */
  async function codeOf(run: SimRun): Promise<string> {
    return run.until(async () => {
      const line = run.xsbug.lines.find((l) => /setup code: [A-Z2-9]{8}/.test(l));
      if (line === undefined) return undefined;
      const r = await fetch(`${board()}/setup`).catch(() => undefined);
      return r?.status === 200 ? /setup code: ([A-Z2-9]{8})/.exec(line)?.[1] : undefined;
    }, 120_000);
  }

  const configPrefs = (): Record<string, unknown> => {
    try {
      return (
        (
          JSON.parse(readFileSync(join(prefs, 'modpreferences.json'), 'utf8')) as Record<
            string,
            Record<string, unknown>
          >
        ).config ?? {}
      );
    } catch {
      return {};
    }
  };

  let firstCode = '';
  it('with no token: setup mode, the code printed, the page served, a wrong code refused (401)', async () => {
    const run = await boot(true);
    firstCode = await codeOf(run);
    const page = await fetch(`${board()}/`);
    assert.equal(page.status, 200);
    assert.match(await page.text(), /<form id="f">/);
    const wrong = await fetch(`${board()}/setup`, {
      method: 'POST',
      headers: { authorization: 'Bearer WRONG234' },
      body: '{}',
    });
    assert.equal(wrong.status, 401);
    assert.ok(!run.xsbug.lines.some((l) => l.includes('agent booting')));
  });

  it('a wrong token through npm run provision: 422, nothing stored; a restart is still in setup mode', async () => {
    let run = await boot(false);
    const code = await codeOf(run);
    assert.notEqual(code, firstCode, 'a new code at every boot');
    const cli = await provision(
      ['--board', board(), '--service', service!.url, '--device', 'demo-001', '--code', code],
      { DDS_TOKEN: 'wrong-token-123' },
    );
    assert.equal(cli.code, 1, cli.out);
    assert.match(cli.out, /422 unauthorized/);
    assert.equal(configPrefs().token, undefined);
    await run.stop();
    run = await boot(false);
    assert.ok(await codeOf(run));
  });

  it('the right settings through npm run provision: 200, then states reach the service without a restart', async () => {
    const run = await boot(false);
    const code = await codeOf(run);
    const since = Date.now();
    const cli = await provision(
      ['--board', board(), '--service', service!.url, '--device', 'demo-001', '--code', code],
      {
        DDS_TOKEN: TOKEN,
      },
    );
    assert.equal(cli.code, 0, cli.out);
    assert.match(cli.out, /200 provisioned demo-001/);
    assert.equal(configPrefs().token, TOKEN);
    await run.until(async () => {
      const r = await fetch(`${service!.url}/api/v1/states/read/last?device=demo-001`, { headers: ADMIN });
      const states = (r.status === 200 ? await r.json() : []) as Array<{ timestamp: number | string }>;
      const ms = (s: { timestamp: number | string }): number =>
        typeof s.timestamp === 'number' ? s.timestamp * 1000 : Date.parse(s.timestamp);
      return states.some((s) => ms(s) >= since - 2000) ? true : undefined;
    }, 120_000);
    assert.ok(!run.xsbug.lines.some((l) => l.includes(TOKEN)), 'the token is never traced');
  });

  it('a second boot starts the agent directly', async () => {
    const run = await boot(false);
    await run.until(async () => (run.xsbug.lines.some((l) => l.includes('agent booting')) ? true : undefined), 120_000);
    assert.ok(!run.xsbug.lines.some((l) => /setup code/.test(l)));
  });

  it('the setup button held at boot: setup mode; held 5 s: a factory reset', async () => {
    const file = join(prefs, 'modpreferences.json');
    const held = (ms: number): void => {
      const all = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
      writeFileSync(file, JSON.stringify({ ...all, sim: { hold: `0:${ms}` } }));
    };
    held(1000);
    let run = await boot(false);
    await codeOf(run);
    assert.ok(run.xsbug.lines.some((l) => l.includes('button held at boot')));
    assert.equal(configPrefs().token, TOKEN, 'settings kept');
    await run.stop();
    held(8000);
    run = await boot(false);
    await codeOf(run);
    await run.until(async () => (run.xsbug.lines.some((l) => l.includes('factory reset')) ? true : undefined), 60_000);
    await run.stop();
    assert.equal(configPrefs().token, undefined, 'settings cleared');
  });
});
