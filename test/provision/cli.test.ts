/**
 * `npm run provision` (host-sim/provision) as a user runs it, from its bin
 * entry, against a fake board (the core's setup routes on node:http, trying
 * settings against the local service): exit codes, one line per outcome, the
 * code asked on the terminal, `--from-fleet` marking its rows, and no secret
 * on the command line or in the output.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startService, type RunningService } from '../../host-sim/service/index.js';
import { FakeBoard } from './fake-board.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const fixture = join(root, 'host-sim', 'service', 'fixtures', 'demo.json');
const TOKEN = 'device-token-demo-001';
const CODE = 'K7M2Q9XR';

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function provision(args: string[], env: Record<string, string> = {}, input?: string): Promise<Run> {
  const child = spawn(process.execPath, [join(root, 'bin', 'dds-provision.mjs'), ...args], {
    env: { ...process.env, DDS_TOKEN: '', DDS_WIFI_PASSWORD: '', ...env },
    stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
  });
  if (input !== undefined) child.stdin?.end(input);
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr?.on('data', (c: Buffer) => (stderr += c.toString()));
  return new Promise((done) => child.once('close', (code) => done({ code, stdout, stderr })));
}

const oneLine = (text: string): void => assert.equal(text.trim().split('\n').length, 1, text);

describe('npm run provision', function () {
  this.timeout(60_000);
  let service: RunningService;
  let board: FakeBoard;
  let scratch: string;

  before(async () => {
    service = await startService({ fixture, port: 0, dbPath: ':memory:' });
    scratch = mkdtempSync(join(tmpdir(), 'dds-provision-'));
  });
  after(async () => {
    await service.close();
    rmSync(scratch, { recursive: true, force: true });
  });
  beforeEach(async () => {
    board = await new FakeBoard(CODE).start();
  });
  afterEach(() => board.close());

  const base = (): string[] => ['--board', board.url, '--service', service.url];

  it('--help prints the usage, exits 0 and sends nothing', async () => {
    const run = await provision(['--help', ...base()]);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /^usage: dds-provision --board/);
    assert.equal(run.stderr, '');
    assert.equal(board.requests, 0);
  });

  it('bad options: one line naming the option, exit 2, nothing sent', async () => {
    const cases: Array<[string[], Record<string, string>, RegExp]> = [
      [['--service', 'http://x'], { DDS_TOKEN: TOKEN }, /--board: required/],
      [[...base()], { DDS_TOKEN: TOKEN }, /--device: required/],
      [[...base(), '--device', 'demo-001'], {}, /no token: set DDS_TOKEN or give --token-file/],
      [[...base(), '--device', 'demo-001', '--token', TOKEN], {}, /never given on the command line/],
      [[...base(), '--device', 'demo-001', '--bogus', '1'], { DDS_TOKEN: TOKEN }, /--bogus: unknown option/],
      [['--board', 'ftp://x', '--service', 'http://x', '--device', 'd'], { DDS_TOKEN: TOKEN }, /--board: expected/],
      [[...base(), '--device', 'd', '--token-file', join(scratch, 'none')], {}, /--token-file .*ENOENT/],
      [[...base(), '--device', 'd', '--ca', join(scratch, 'none')], { DDS_TOKEN: TOKEN }, /--ca .*ENOENT/],
      [[...base(), '--device', 'd'], { DDS_TOKEN: TOKEN, DDS_WIFI_PASSWORD: 'pw-12345678' }, /--wifi is not/],
      [[...base(), '--from-fleet', join(scratch, 'none.csv')], {}, /--from-fleet .*ENOENT/],
    ];
    for (const [args, env, message] of cases) {
      const run = await provision([...args, '--code', CODE], env);
      assert.equal(run.code, 2, `${args.join(' ')}: ${run.stderr}`);
      oneLine(run.stderr);
      assert.match(run.stderr, message);
      assert.ok(!run.stderr.includes(TOKEN) || message.source.includes('command line'), run.stderr);
    }
    assert.equal(board.requests, 0);
  });

  it('a wrong code: the board answers 401, one line, exit 1, nothing stored', async () => {
    const run = await provision([...base(), '--device', 'demo-001', '--code', 'WRONG123'], { DDS_TOKEN: TOKEN });
    assert.equal(run.code, 1);
    oneLine(run.stdout);
    assert.match(run.stdout, /: 401 wrong or missing setup code/);
    assert.equal(board.stored.size, 0);
  });

  it('a wrong token: the board tries it, answers 422 unauthorized, exit 1, nothing stored', async () => {
    const run = await provision([...base(), '--device', 'demo-001', '--code', CODE], { DDS_TOKEN: 'not-the-token-1' });
    assert.equal(run.code, 1);
    oneLine(run.stdout);
    assert.match(run.stdout, /: 422 unauthorized: GET \/api\/v1\/channels\/list: 401/);
    assert.ok(!run.stdout.includes('not-the-token-1'));
    assert.equal(board.stored.size, 0);
  });

  it('an unknown device: 422 not-found; a service that is down: 422 unreachable', async () => {
    const unknown = await provision([...base(), '--device', 'nope', '--code', CODE], { DDS_TOKEN: TOKEN });
    assert.equal(unknown.code, 1);
    assert.match(unknown.stdout, /: 422 (not-found|unauthorized): /);
    const down = await provision(
      ['--board', board.url, '--service', 'http://127.0.0.1:9', '--device', 'demo-001', '--code', CODE],
      { DDS_TOKEN: TOKEN },
    );
    assert.equal(down.code, 1);
    assert.match(down.stdout, /: 422 unreachable: /);
    assert.equal(board.stored.size, 0);
  });

  it('the right settings: 200 in one line, exit 0; the board stored them and starts the agent', async () => {
    const tokenFile = join(scratch, 'token');
    writeFileSync(tokenFile, `${TOKEN}\n`);
    const run = await provision([...base(), '--device', 'demo-001', '--token-file', tokenFile], {}, `${CODE}\n`);
    assert.equal(run.code, 0, run.stderr + run.stdout);
    oneLine(run.stdout);
    assert.match(run.stdout, new RegExp(`^board ${board.url}: 200 provisioned demo-001 to ${service.url}$`, 'm'));
    assert.equal(board.stored.get('token'), TOKEN);
    assert.equal(board.stored.get('serviceUrl'), service.url);
    assert.equal(board.provisioned.length, 1);
    assert.ok(!run.stdout.includes(TOKEN) && !run.stderr.includes(TOKEN));
    // The service learned of it: the device's property provisioned-at (decisions 8).
    const r = await fetch(`${service.url}/api/v1/properties/get?device=demo-001`, {
      headers: { authorization: 'Bearer admin-token-demo' },
    });
    const at = ((await r.json()) as Record<string, unknown>)['provisioned-at'];
    assert.ok(typeof at === 'string' && Math.abs(Date.parse(at) - Date.now()) < 60_000, String(at));
  });

  it('no code given and none typed: exit 2', async () => {
    const run = await provision([...base(), '--device', 'demo-001'], { DDS_TOKEN: TOKEN }, '');
    assert.equal(run.code, 2);
    assert.match(run.stderr, /no setup code/);
    assert.equal(board.requests, 0);
  });

  it('a board that does not answer: one line, exit 1', async () => {
    await board.close();
    const run = await provision([...base(), '--device', 'demo-001', '--code', CODE], { DDS_TOKEN: TOKEN });
    assert.equal(run.code, 1);
    oneLine(run.stderr);
    assert.match(run.stderr, /^provision: board http:\/\/127.0.0.1:\d+: ECONNREFUSED/);
    board = await new FakeBoard(CODE).start();
  });

  it('--from-fleet provisions the next unused row and marks it; a refused board leaves it unused', async () => {
    const csv = join(scratch, 'fleet.csv');
    writeFileSync(csv, `key,token\n# a comment\ndemo-001,${TOKEN}\ndemo-002,device-token-demo-002\n`);
    const refused = await provision([...base(), '--from-fleet', csv, '--code', 'WRONG123']);
    assert.equal(refused.code, 1);
    assert.match(readFileSync(csv, 'utf8'), /^demo-001,/m);
    const first = await provision([...base(), '--from-fleet', csv, '--code', CODE]);
    assert.equal(first.code, 0, first.stdout + first.stderr);
    assert.match(first.stdout, /200 provisioned demo-001/);
    const text = readFileSync(csv, 'utf8');
    assert.match(text, new RegExp(`^# provisioned \\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z demo-001,${TOKEN}$`, 'm'));
    assert.match(text, /^demo-002,device-token-demo-002$/m);
    // The next board takes the next row.
    await board.close();
    board = await new FakeBoard(CODE).start();
    const second = await provision([...base(), '--from-fleet', csv, '--code', CODE]);
    assert.equal(second.code, 0, second.stdout + second.stderr);
    assert.match(second.stdout, /200 provisioned demo-002/);
    assert.equal(board.stored.get('deviceKey'), 'demo-002');
    assert.match(readFileSync(csv, 'utf8'), /^# provisioned \S+ demo-002,/m);
  });

  it('--from-fleet with every row used: one line, exit 2', async () => {
    const csv = join(scratch, 'used.csv');
    writeFileSync(csv, `# provisioned 2026-01-01T00:00:00Z demo-001,${TOKEN}\n`);
    const run = await provision([...base(), '--from-fleet', csv, '--code', CODE]);
    assert.equal(run.code, 2);
    assert.match(run.stderr, /no unused row left/);
  });
});
