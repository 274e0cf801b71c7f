/**
 * One error style for every command (issue 29): one line naming the option,
 * path or host, with the fix when there is one; exit 2 for usage, 1 for a
 * runtime failure, and never the usage dumped on a runtime failure. Each
 * friction of the issue has its case here: the service's taken port, bad
 * host, missing database directory and `--port -1`; nmea given a directory;
 * npm start on a taken port.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:net';
import { runBin, type Run } from './support/commands.js';

/** One error line (and the hint line for a usage error), no usage. */
function assertOneLine(run: Run, code: 1 | 2, line: RegExp): void {
  assert.equal(run.code, code, run.stderr);
  const lines = run.stderr.trimEnd().split('\n');
  assert.equal(lines.length, code === 2 ? 2 : 1, run.stderr);
  assert.match(lines[0]!, line);
  if (code === 2) assert.match(lines[1]!, /^\(.* --help lists the options\)$/);
  assert.doesNotMatch(run.stderr + run.stdout, /usage:/);
}

async function takenPort(): Promise<{ server: Server; port: number }> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const address = server.address();
  assert.ok(address !== null && typeof address === 'object');
  return { server, port: address.port };
}

describe('the commands: one error style', function () {
  this.timeout(60000);

  it('service: a taken port is a runtime failure naming --port and the fix, exit 1', async () => {
    const { server, port } = await takenPort();
    try {
      const run = await runBin('dds-service', ['--port', String(port), '--host', '127.0.0.1', '--db', ':memory:']);
      assertOneLine(run, 1, new RegExp(`^service: --port ${port}: EADDRINUSE, .*--port 0 picks a free one\\)$`));
    } finally {
      await new Promise<void>((done) => server.close(() => done()));
    }
  });

  it('service: a host that is not this machine names --host, exit 1', async () => {
    const run = await runBin('dds-service', ['--port', '0', '--host', 'no-such-host.invalid', '--db', ':memory:']);
    assertOneLine(
      run,
      1,
      /^service: --host no-such-host\.invalid: (ENOTFOUND|EAI_AGAIN), not an address of this machine/,
    );
  });

  it('service: a database in a directory that does not exist names the path, exit 1', async () => {
    const run = await runBin('dds-service', ['--port', '0', '--db', '/nonexistent/dir/x.db']);
    assertOneLine(run, 1, /^service: --db \/nonexistent\/dir\/x\.db: the directory \/nonexistent\/dir does not exist/);
  });

  it('service: --port -1 is a usage error about the value, not the parser\'s "ambiguous"; unknown options exit 2', async () => {
    const negative = await runBin('dds-service', ['--port', '-1']);
    assertOneLine(negative, 2, /^service: --port must be a whole number from 0 to 65535, got "-1"$/);
    const unknown = await runBin('dds-service', ['--verbos']);
    assertOneLine(unknown, 2, /^service: unknown option --verbos$/);
    const fixture = await runBin('dds-service', ['--port', '0', '--fixture', '/nonexistent.json']);
    assertOneLine(fixture, 1, /^service: --fixture \/nonexistent\.json: cannot read/);
  });

  it('npm start: a taken port is a runtime failure (exit 1) naming --port; a bad value a usage error (exit 2)', async () => {
    const { server, port } = await takenPort();
    try {
      const run = await runBin('dds-start', ['--port', String(port)]);
      assertOneLine(run, 1, new RegExp(`^npm start: --port ${port}: EADDRINUSE.*--port 0 picks a free one`));
    } finally {
      await new Promise<void>((done) => server.close(() => done()));
    }
    const start = await runBin('dds-start', ['--port', 'abc']);
    assert.equal(
      start.stderr,
      'npm start: --port must be a whole number from 0 to 65535, got "abc"\n(npm start -- --help lists the options)\n',
    );
  });

  it('agent: one line naming the option, a hint, exit 2', async () => {
    const agent = await runBin(
      'dds-agent',
      ['--service', 'http://127.0.0.1:1', '--device', 'd', '--gnss', 'simulated'],
      {
        env: { DDS_TOKEN: 't' },
      },
    );
    assert.equal(agent.code, 2);
    assert.match(agent.stderr, /--gnss: "simulated" is simulated hardware; `npm run device`/);
    const config = await runBin('dds-agent', ['--config', '/nonexistent/dds.json']);
    assertOneLine(config, 2, /^--config \/nonexistent\/dds.json: /);
  });

  it('nmea: a directory, a missing file: one line naming it, exit 1; empty or binary input fails', async () => {
    const dir = await runBin('dds-nmea', ['docs']);
    assertOneLine(dir, 1, /^nmea: cannot read docs: a directory, not a capture file$/);
    const missing = await runBin('dds-nmea', ['/no/such.log']);
    assertOneLine(missing, 1, /^nmea: cannot read \/no\/such\.log: ENOENT/);
    const empty = await runBin('dds-nmea', [], { input: new Uint8Array(0) });
    assert.equal(empty.code, 1);
    assert.match(empty.stderr, /nmea: standard input is empty\n$/);
    const noise = await runBin('dds-nmea', [], {
      input: Uint8Array.from({ length: 4096 }, (_, i) => (i * 97 + 13) & 0xff),
    });
    assert.equal(noise.code, 1);
    assert.match(noise.stderr, /holds no valid NMEA sentence/);
    const unknown = await runBin('dds-nmea', ['--bogus']);
    assert.equal(unknown.stderr, 'nmea: unknown option --bogus\n(npm run nmea -- --help shows the usage)\n');
  });

  it('fleet: a usage error exits 2, a file it cannot read exits 1 naming the option and the path', async () => {
    const usage = await runBin('dds-fleet', ['--service', 'http://127.0.0.1:1']);
    assertOneLine(usage, 2, /^fleet: --service and --tokens are required$/);
    const missing = await runBin('dds-fleet', ['--service', 'http://127.0.0.1:1', '--tokens', '/nonexistent.json']);
    assertOneLine(missing, 1, /^fleet: --tokens \/nonexistent\.json: ENOENT$/);
  });
});
