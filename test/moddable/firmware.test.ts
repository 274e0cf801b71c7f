/**
 * The firmware itself, with the Moddable SDK's tools (issue 7). Needs MODDABLE
 * (an SDK with its Linux tools built); skips with the reason otherwise:
 * - `mcconfig -d -m -p lin -t build` builds manifest.json for the desktop simulator;
 * - the build runs in `mcsim` under `xvfb-run` against the local service (port 0)
 *   and its pin channels' `.reported` states arrive there.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { strict as assert } from 'node:assert';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startService, type RunningService } from '../../host-sim/service/index.js';
import { XsbugLog } from './xsbug.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const moddable = process.env.MODDABLE;
const binDir =
  moddable === undefined
    ? undefined
    : ['release', 'debug']
        .map((g) => join(moddable, 'build', 'bin', 'lin', g))
        .find((d) => existsSync(join(d, 'mcconfig')));
const outDir = join(tmpdir(), 'dds-agent-mcconfig');
const simRoot = '/tmp/dds-agent-sim/'; // manifest.json, platform lin: config.file.root
const soPath = join(outDir, 'bin', 'lin', 'mc', 'debug', 'moddable', 'mc.so');

function run(command: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      command,
      args,
      { cwd: root, env: { ...process.env, PATH: `${binDir}${delimiter}${process.env.PATH}` }, maxBuffer: 64 << 20 },
      (error, stdout, stderr) =>
        error ? reject(new Error(`${command} failed: ${stderr.slice(-2000)}`)) : resolve(stdout),
    );
  });
}

async function buildFirmware(serviceUrl: string): Promise<void> {
  await run(process.execPath, [
    join(root, 'node_modules', 'rollup', 'dist', 'bin', 'rollup'),
    '-c',
    'rollup.config.mjs',
  ]);
  mkdirSync(outDir, { recursive: true });
  await run('mcconfig', [
    '-d',
    '-m',
    '-p',
    'lin',
    '-t',
    'build',
    '-o',
    outDir,
    'manifest.json',
    `serviceUrl=${serviceUrl}`,
  ]);
}

function onPath(name: string): boolean {
  return (process.env.PATH ?? '').split(delimiter).some((d) => existsSync(join(d, name)));
}

describe('Moddable firmware (MODDABLE)', function () {
  this.timeout(600_000);

  before(function () {
    if (moddable === undefined || binDir === undefined) {
      console.log(
        `    skipped: ${moddable === undefined ? 'MODDABLE is not set' : `no mcconfig under ${moddable}/build/bin/lin`}; ` +
          'set MODDABLE to a Moddable SDK with its Linux tools built to build and run the firmware',
      );
      this.skip();
    }
  });

  it('builds manifest.json with mcconfig -d -m -p lin -t build', async () => {
    await buildFirmware('http://127.0.0.1:8080');
    assert.ok(existsSync(soPath), `no ${soPath}`);
  });

  describe('in mcsim against the local service', () => {
    let service: RunningService | undefined;
    let sim: ChildProcess | undefined;
    let xsbug: XsbugLog | undefined;

    before(function () {
      if (!existsSync(join(binDir ?? '', 'mcsim')) || !onPath('xvfb-run')) {
        console.log('    skipped: needs mcsim (built from the SDK with GTK 3) and xvfb-run');
        this.skip();
      }
    });

    after(async () => {
      if (sim?.pid !== undefined) {
        try {
          process.kill(-sim.pid, 'SIGTERM');
        } catch {
          // already gone
        }
      }
      await xsbug?.close();
      await service?.close();
    });

    it('reports the pin channels of the demo device and connects to the hub', async () => {
      service = await startService({ fixture: join(root, 'host-sim', 'service', 'fixtures', 'demo.json') });
      await buildFirmware(service.url);
      rmSync(simRoot, { recursive: true, force: true });
      mkdirSync(simRoot, { recursive: true });
      xsbug = new XsbugLog();
      const port = await xsbug.listen();
      sim = spawn('xvfb-run', ['-a', join(binDir ?? '', 'mcsim'), soPath], {
        env: { ...process.env, XSBUG_HOST: '127.0.0.1', XSBUG_PORT: String(port) },
        stdio: 'ignore',
        detached: true,
      });
      const url = `${service.url}/api/v1/states/read/last?device=demo-001`;
      const wanted = ['temperature.reported', 'battery.reported', 'door.reported', 'relay.reported', 'dimmer.reported'];
      const log = xsbug;
      // Driven by the simulator's own events (trace lines, instrument samples each second), bounded.
      const found = await new Promise<string[]>((resolve, reject) => {
        let busy = false;
        const deadline = Date.now() + 90_000;
        log.onEvent = () => {
          if (busy) return;
          if (Date.now() > deadline) reject(new Error(`no states within 90 s; firmware log:\n${log.lines.join('\n')}`));
          busy = true;
          fetch(url, { headers: { Authorization: 'Bearer admin-token-demo' } })
            .then((r) => r.json() as Promise<Array<{ channel: string }>>)
            .then((states) => {
              const names = states.map((s) => s.channel.slice(s.channel.indexOf(':') + 1));
              if (wanted.every((w) => names.includes(w)) && log.lines.some((l) => l.includes('hub: connected')))
                resolve(names);
            })
            .catch(() => undefined)
            .finally(() => (busy = false));
        };
      });
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
