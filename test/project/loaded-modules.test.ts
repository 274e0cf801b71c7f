/**
 * One-way dependencies at run time: `npm run agent` on real serial ports
 * loads no simulator module. The agent runs in a child process with a resolve
 * hook recording every module it loads; the same run of `npm run device` (the
 * simulator plugged in) proves that the recording sees simulator modules when
 * they are loaded.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

/** A loopback port nothing listens on: bound by the OS, then released. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const address = server.address();
  await new Promise<void>((done) => server.close(() => done()));
  assert.ok(address !== null && typeof address === 'object');
  return address.port;
}

/** Runs `entry` until it logs that it tried the service, stops it by PID, and returns the modules it loaded. */
async function modulesLoadedBy(entry: string, args: string[]): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), 'dds-modules-'));
  const record = join(dir, 'modules.txt');
  try {
    const child = spawn(
      process.execPath,
      ['--import', join(root, 'test', 'project', 'support', 'record-modules.mjs'), join(root, 'build', entry), ...args],
      { env: { ...process.env, DDS_TOKEN: 'token-of-the-test', DDS_RECORD_MODULES: record }, stdio: 'pipe' },
    );
    let output = '';
    const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
    await new Promise<void>((done, fail) => {
      const seen = (chunk: Buffer): void => {
        output += chunk.toString();
        if (output.includes('config: not read')) done();
      };
      child.stdout.on('data', seen);
      child.stderr.on('data', seen);
      void exited.then((code) => fail(new Error(`${entry} exited (${code}) early:\n${output}`)));
    });
    child.kill('SIGTERM');
    assert.equal(await exited, 0, output);
    return readFileSync(record, 'utf8')
      .split('\n')
      .filter((line) => line.startsWith('file:'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('one-way dependencies at run time', function () {
  this.timeout(20000);

  it('npm run agent -- --gnss /dev/ttyX --bus field=/dev/ttyY loads no simulator module', async () => {
    const service = `http://127.0.0.1:${await closedPort()}`;
    const args = ['--service', service, '--device', 'd', '--gnss', '/dev/ttyX', '--bus', 'field=/dev/ttyY'];
    const modules = await modulesLoadedBy('targets/node/main.js', args);
    const ours = modules.filter((url) => url.includes('/build/'));
    assert.ok(
      ours.some((url) => url.endsWith('/build/targets/node/serial.js')),
      'the recording saw the target',
    );
    assert.ok(
      ours.some((url) => url.endsWith('/build/src/gnss/location-provider.js')),
      'and the core',
    );
    assert.deepEqual(
      ours.filter((url) => url.includes('/build/host-sim/')),
      [],
    );
  });

  it('the same recording sees the simulator in npm run device (a test of the test)', async () => {
    const service = `http://127.0.0.1:${await closedPort()}`;
    const args = ['--service', service, '--device', 'd', '--gnss', 'simulated', '--bus', 'field=sim'];
    const modules = await modulesLoadedBy('host-sim/device/main.js', args);
    assert.ok(modules.some((url) => url.endsWith('/build/host-sim/pins/sim-pins.js')));
    assert.ok(modules.some((url) => url.endsWith('/build/host-sim/gnss/receiver.js')));
  });
});
