/**
 * The commands as a user meets them, run as child processes from their bin
 * entries on the built code: every `--help` answers at once (under 3 s, the
 * time measured here, including Node's start-up), and bad input gets one line
 * naming the option and a one-line hint, with a non-zero exit.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseStartArgs } from '../../host-sim/start-args.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
}

function runBin(bin: string, args: string[], env: Record<string, string> = {}, input?: Uint8Array): Promise<Run> {
  const started = performance.now();
  const child = spawn(process.execPath, [join(root, 'bin', `${bin}.mjs`), ...args], {
    env: { ...process.env, ...env },
    stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
  });
  if (input !== undefined) child.stdin?.end(input);
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr?.on('data', (c: Buffer) => (stderr += c.toString()));
  return new Promise((done) =>
    child.once('close', (code) => done({ code, stdout, stderr, ms: performance.now() - started })),
  );
}

describe('the commands', function () {
  this.timeout(30000);

  // "After install": the build is up to date (npm test built it; a source edited since is rebuilt here, untimed).
  before(function () {
    this.timeout(180000);
    return runBin('run', []).then((run) => assert.equal(run.code, 0, run.stderr));
  });

  for (const bin of ['dds-agent', 'dds-device', 'dds-service', 'dds-nmea', 'dds-start', 'dds-firmware']) {
    it(`${bin} --help answers in under 3 s`, async () => {
      const run = await runBin(bin, ['--help']);
      assert.equal(run.code, 0, run.stderr);
      assert.match(run.stdout, /^usage: /);
      assert.ok(run.ms < 3000, `${bin} --help took ${Math.round(run.ms)} ms`);
    });
  }

  it('agent and start: one line naming the option, a hint, exit 2', async () => {
    const agent = await runBin(
      'dds-agent',
      ['--service', 'http://127.0.0.1:1', '--device', 'd', '--gnss', 'simulated'],
      {
        DDS_TOKEN: 't',
      },
    );
    assert.equal(agent.code, 2);
    assert.match(agent.stderr, /--gnss: "simulated" is simulated hardware; `npm run device`/);
    const config = await runBin('dds-agent', ['--config', '/nonexistent/dds.json']);
    assert.equal(config.code, 2);
    assert.equal(config.stderr.trim().split('\n').length, 2, config.stderr);
    assert.match(
      config.stderr,
      /^--config \/nonexistent\/dds.json: .*\n\(npm run agent -- --help lists the options\)\n$/,
    );
    const start = await runBin('dds-start', ['--port', 'abc']);
    assert.equal(start.code, 2);
    assert.equal(
      start.stderr,
      'npm start: --port must be a whole number from 0 to 65535, got "abc"\n(npm start -- --help lists the options)\n',
    );
  });

  it('nmea: empty or binary input is a failure, not a pass', async () => {
    const empty = await runBin('dds-nmea', [], {}, new Uint8Array(0));
    assert.equal(empty.code, 1);
    assert.match(empty.stderr, /nmea: standard input is empty\n$/);
    const binary = Uint8Array.from({ length: 4096 }, (_, i) => (i * 97 + 13) & 0xff);
    const noise = await runBin('dds-nmea', [], {}, binary);
    assert.equal(noise.code, 1);
    assert.match(noise.stderr, /holds no valid NMEA sentence/);
    const unknown = await runBin('dds-nmea', ['--bogus']);
    assert.equal(unknown.code, 2);
    assert.equal(unknown.stderr, 'nmea: unknown option --bogus\n(npm run nmea -- --help shows the usage)\n');
  });

  it('npm start on a taken port is an error naming it, not a move to another port', async () => {
    const server = createServer();
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    const address = server.address();
    assert.ok(address !== null && typeof address === 'object');
    try {
      const run = await runBin('dds-start', ['--port', String(address.port)]);
      assert.equal(run.code, 2);
      assert.match(run.stderr, new RegExp(`^npm start: --port ${address.port}: EADDRINUSE.*--port 0 picks a free one`));
    } finally {
      await new Promise<void>((done) => server.close(() => done()));
    }
  });

  it('npm start options: defaults, and errors that name the option', () => {
    assert.deepEqual(parseStartArgs([]), {
      port: 8080,
      scenario: undefined,
      store: undefined,
      db: undefined,
      tls: false,
      help: false,
    });
    assert.equal(parseStartArgs(['--port', '0', '--tls']).port, 0);
    assert.throws(() => parseStartArgs(['--port', '70000']), /--port must be a whole number/);
    assert.throws(() => parseStartArgs(['--db']), /^Error: --db needs a value$/);
    assert.throws(() => parseStartArgs(['--verbose']), /unknown option --verbose/);
    assert.throws(() => parseStartArgs(['extra']), /unexpected argument "extra"/);
  });
});
