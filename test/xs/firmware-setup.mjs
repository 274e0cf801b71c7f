// Setup mode on XS (decisions 11), in `npm run test:firmware`: the provisionable
// firmware (targets/moddable/main-setup.ts) with the fakes, its setup server on
// the fake `http` Server (the host listens on port 0 for the firmware's
// setupPort), against the local service. In order, sharing the preferences:
// no token -> setup mode and its code; the page; a wrong code (401); a wrong
// token (422, nothing stored) and a restart still in setup mode with a new code;
// the right settings through `npm run provision` (200), states at the service
// without a restart, a second boot straight into the agent; the setup button
// held at boot (setup mode, settings kept) and held longer (factory reset).
import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import { connect } from 'node:net';
import fc from 'fast-check';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FirmwareRun, linConfig } from './firmware-host.mjs';
import { assertHealthy, clock, manifest, rawServer, root } from './firmware-support.mjs';

const { startService } = await import(join(root, 'build', 'host-sim', 'service', 'index.js'));
const fixture = join(root, 'host-sim', 'service', 'fixtures', 'demo.json');
const ADMIN = { authorization: 'Bearer admin-token-demo' };
const TOKEN = 'device-token-demo-001';
const scratch = mkdtempSync(join(tmpdir(), 'dds-firmware-setup-'));
const SETUP_PORT = Number(manifest.platforms.lin.config.setupPort);

let svc;
/** The board's preferences, kept across its boots. */
const flash = new Map();
let codes = [];

/** A boot of the provisionable firmware with `flash`; no token in its image. */
async function bootBoard(extra = {}, flavor = 'lin', preferences = flash) {
  svc ??= await startService({ fixture, port: 0, dbPath: join(scratch, 'service.db'), now: () => clock.wallMs });
  const run = new FirmwareRun({ flavor, clock, flash: preferences, firmware: 'setup' });
  await run.start(false, linConfig(manifest, { serviceUrl: 'http://127.0.0.1:1', token: '', ...extra }));
  return run;
}

/** The setup code the run printed, once its setup server listens. */
async function setupCode(run) {
  const found = await run.until(
    () => run.logs.some((l) => /setup code: /.test(l)) && run.listenerPort(SETUP_PORT) !== undefined,
    10_000,
  );
  assert.ok(found, `no setup mode; log:\n${run.logs.join('\n')}`);
  const code = /setup code: ([A-Z2-9]{8})$/.exec(run.logs.find((l) => /setup code: /.test(l)))?.[1];
  assert.ok(code, run.logs.join('\n'));
  return code;
}

/** Runs the firmware until `promise` settles (60 s of real time at most); returns its outcome. */
async function during(run, promise, limitMs = 60_000) {
  let outcome;
  promise.then(
    (value) => (outcome = { value }),
    (error) => (outcome = { error }),
  );
  const deadline = performance.now() + limitMs;
  await run.until(() => outcome !== undefined || performance.now() > deadline, 10_000_000, 20);
  assert.ok(outcome !== undefined, `no answer within ${limitMs} ms; log:\n${run.logs.slice(-20).join('\n')}`);
  if (outcome.error) throw outcome.error;
  return outcome.value;
}

async function request(run, path, init = {}) {
  const r = await during(run, fetch(`http://127.0.0.1:${run.listenerPort(SETUP_PORT)}${path}`, init));
  return { status: r.status, headers: r.headers, body: await during(run, r.text()) };
}

const post = (run, code, settings) =>
  request(run, '/setup', {
    method: 'POST',
    headers: { authorization: `Bearer ${code}`, 'content-type': 'application/json' },
    body: JSON.stringify(settings),
  });

/** `npm run provision` as a user runs it, while the firmware runs. */
function provisionCli(args, env) {
  const child = spawn(process.execPath, [join(root, 'bin', 'dds-provision.mjs'), ...args], {
    env: { ...process.env, DDS_WIFI_PASSWORD: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c) => (stdout += c));
  child.stderr.on('data', (c) => (stderr += c));
  return new Promise((done) => child.once('close', (code) => done({ code, stdout, stderr })));
}

const noSecretIn = (run, ...texts) => {
  for (const text of [...run.logs, ...texts]) assert.ok(!text.includes(TOKEN), `a secret in: ${text}`);
};

/** Sends raw bytes to the setup server (closing early after `cutAt` bytes when given); resolves with what came back. */
function sendRaw(port, bytes, cutAt) {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    const chunks = [];
    socket.on('data', (c) => chunks.push(c));
    socket.on('error', () => undefined);
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('latin1')));
    socket.on('connect', () => {
      if (cutAt === undefined) socket.write(bytes);
      else socket.end(bytes.subarray(0, cutAt));
    });
    // A request the server waits on (a short body) ends with the client's FIN after 2 s.
    setTimeout(() => socket.end(), 2_000).unref();
  });
}

/** Raw requests: request lines, headers and bodies of every shape, carrying secrets in valid and broken settings. */
function fuzzedRequests(code, serviceUrl, count) {
  const secret = fc.stringMatching(/^[A-Za-z0-9]{10,24}$/).map((s) => `S3cr3t${s}`);
  const settings = fc.record({
    token: secret,
    password: secret,
    deviceKey: fc.constantFrom('demo-001', 'x y'),
    ssid: fc.string({ maxLength: 8 }),
  });
  const body = fc.oneof(
    settings.map((s) => ({ bytes: Buffer.from(JSON.stringify({ serviceUrl, ...s })), secrets: [s.token, s.password] })),
    settings.map((s) => ({
      bytes: Buffer.from(JSON.stringify({ serviceUrl, deviceKey: s.deviceKey, token: s.token })),
      secrets: [s.token],
    })),
    fc.uint8Array({ maxLength: 300 }).map((b) => ({ bytes: Buffer.from(b), secrets: [] })),
    fc.constant({ bytes: Buffer.alloc(0), secrets: [] }),
  );
  // Mostly well-formed request lines and headers, so that most requests reach the routes; the rest is noise.
  const line = fc.tuple(
    fc.oneof({ arbitrary: fc.constantFrom('GET', 'POST'), weight: 8 }, fc.constantFrom('PUT', 'HEAD', 'G\u00e9T', '')),
    fc.oneof(
      { arbitrary: fc.constantFrom('/', '/setup', '/setup.js', '/nope'), weight: 4 },
      fc.string({ maxLength: 40 }),
    ),
    fc.oneof(
      { arbitrary: fc.constant('HTTP/1.1'), weight: 8 },
      fc.constantFrom('HTTP/1.0', 'HTTP/2', '', 'HTTP/1.1 x'),
    ),
  );
  const header = fc.oneof(
    {
      arbitrary: fc
        .tuple(fc.stringMatching(/^[A-Za-z-]{1,12}$/), fc.string({ maxLength: 30 }))
        .map(([n, v]) => `X-${n}: ${v}`),
      weight: 4,
    },
    fc.string({ maxLength: 30 }),
  );
  const request = fc.record({
    line,
    auth: fc.constantFrom(`Bearer ${code}`, `Bearer ${code}`, 'Bearer WRONG', '', 'Basic x'),
    length: fc.oneof(
      { arbitrary: fc.constant('exact'), weight: 6 },
      fc.constantFrom('none', 'short', 'long', 'huge', 'garbage', 'chunked'),
    ),
    extra: fc.array(header, { maxLength: 2 }),
    body,
    cut: fc.oneof({ arbitrary: fc.constant(undefined), weight: 4 }, fc.nat(400)),
  });
  return fc.sample(request, { numRuns: count, seed: 26 }).map((r) => {
    const [method, path, protocol] = r.line;
    const head = [`${method} ${path} ${protocol}`.trimEnd()];
    if (r.auth !== '') head.push(`Authorization: ${r.auth}`);
    const n = r.body.bytes.length;
    const length = {
      exact: n,
      short: Math.max(0, n - 3),
      long: n + 5,
      huge: 10_000_000,
      garbage: '12x',
      none: undefined,
      chunked: undefined,
    }[r.length];
    if (length !== undefined) head.push(`Content-Length: ${length}`);
    if (r.length === 'chunked') head.push('Transfer-Encoding: chunked');
    for (const e of r.extra) head.push(e.replace(/[\r\n]/g, ''));
    const bytes = Buffer.concat([Buffer.from(head.join('\r\n') + '\r\n\r\n', 'latin1'), r.body.bytes]);
    return { bytes, secrets: r.body.secrets, cut: r.cut !== undefined && r.cut < bytes.length ? r.cut : undefined };
  });
}

const configKeys = () => [...flash.keys()].filter((k) => k.startsWith('config\u0000'));

export const setupMode = [
  [
    'setup mode: a board with no token prints a setup code and serves the page and GET /setup',
    async () => {
      const run = await bootBoard();
      try {
        codes.push(await setupCode(run));
        assert.ok(!run.logs.some((l) => l.includes('agent booting')), 'the agent does not start');
        assert.ok(
          run.logs.some((l) => /not provisioned .*token/.test(l)),
          run.logs.join('\n'),
        );
        const page = await request(run, '/');
        assert.equal(page.status, 200);
        assert.equal(page.headers.get('content-security-policy'), "default-src 'self'");
        assert.match(page.body, /<form id="f">/);
        const script = await request(run, '/setup.js');
        assert.equal(script.status, 200);
        const settings = await request(run, '/setup');
        assert.deepEqual(JSON.parse(settings.body), { provisioned: false });
        assertHealthy(run);
      } finally {
        await run.stop();
      }
    },
  ],
  [
    'setup mode: a wrong code is 401; 5 wrong codes then 429 with Retry-After; bad bodies 400 and 413',
    async () => {
      const run = await bootBoard();
      try {
        const code = await setupCode(run);
        const settings = { serviceUrl: svc.url, deviceKey: 'demo-001', token: TOKEN };
        const malformed = await request(run, '/setup', {
          method: 'POST',
          headers: { authorization: `Bearer ${code}` },
          body: '{"serviceUrl":',
        });
        assert.equal(malformed.status, 400);
        const large = await request(run, '/setup', {
          method: 'POST',
          headers: { authorization: `Bearer ${code}` },
          body: 'x'.repeat(7000),
        });
        assert.equal(large.status, 413);
        for (let i = 0; i < 5; i++) assert.equal((await post(run, 'WRONG234', settings)).status, 401);
        const limited = await post(run, code, settings);
        assert.equal(limited.status, 429);
        assert.ok(Number(limited.headers.get('retry-after')) >= 1);
        assert.equal(configKeys().length, 0, 'nothing stored');
        noSecretIn(run, limited.body);
        assertHealthy(run);
      } finally {
        await run.stop();
      }
    },
  ],
  [
    'setup mode: a wrong token is 422 (unauthorized), nothing is stored, and a restart is still in setup mode',
    async () => {
      let run = await bootBoard();
      try {
        const code = await setupCode(run);
        const wrong = await post(run, code, { serviceUrl: svc.url, deviceKey: 'demo-001', token: 'wrong-token-123' });
        assert.equal(wrong.status, 422, wrong.body);
        assert.equal(JSON.parse(wrong.body).reason, 'unauthorized');
        assert.ok(!wrong.body.includes('wrong-token-123'));
        const down = await post(run, code, { serviceUrl: 'http://127.0.0.1:9', deviceKey: 'demo-001', token: TOKEN });
        assert.equal(down.status, 422, down.body);
        assert.equal(JSON.parse(down.body).reason, 'unreachable');
        assert.equal(configKeys().length, 0, 'nothing stored');
        await run.stop();
        run = await bootBoard();
        const again = await setupCode(run);
        codes.push(again);
        assert.notEqual(again, code, 'a new code at every boot');
        noSecretIn(run, down.body);
        assertHealthy(run);
      } finally {
        await run.stop();
      }
    },
  ],
  [
    'setup mode: a service that never answers is 422 unreachable after the trial timeout, on lin and esp32',
    async () => {
      // Accepts and stays silent: the trial's request times out (20 s), past the 15 s a request may take to arrive.
      const silent = await rawServer(() => undefined);
      try {
        for (const flavor of ['lin', 'esp32']) {
          const run = await bootBoard({}, flavor, new Map());
          try {
            const code = await setupCode(run);
            const settings = { serviceUrl: `http://127.0.0.1:${silent.port}`, deviceKey: 'demo-001', token: TOKEN };
            const a = await post(run, code, settings);
            assert.equal(a.status, 422, `${flavor}: ${a.body}`);
            assert.equal(JSON.parse(a.body).reason, 'unreachable');
            assert.match(JSON.parse(a.body).detail, /no answer in 20000 ms/);
            noSecretIn(run, a.body);
            assertHealthy(run);
          } finally {
            await run.stop();
          }
        }
      } finally {
        await silent.close();
      }
    },
  ],
  [
    'setup mode on esp32 (lwIP): a client gone mid-request or mid-answer, a refused service (422), no abort',
    async () => {
      const run = await bootBoard({}, 'esp32', new Map());
      try {
        const code = await setupCode(run);
        const port = run.listenerPort(SETUP_PORT);
        const body = JSON.stringify({ serviceUrl: 'http://127.0.0.1:9', deviceKey: 'demo-001', token: TOKEN });
        const raw = Buffer.from(
          `POST /setup HTTP/1.1\r\nAuthorization: Bearer ${code}\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
        );
        // Gone after half the request, and gone right after the whole request (before the trial's answer).
        assert.equal(await during(run, sendRaw(port, raw, 40)), '');
        assert.equal(await during(run, sendRaw(port, raw, raw.length - 1)), '');
        const a = await post(run, code, JSON.parse(body));
        assert.equal(a.status, 422, a.body);
        assert.equal(JSON.parse(a.body).reason, 'unreachable');
        // Over the fake socket's 1 KiB transmit buffer: written in pieces the socket can take.
        const script = await request(run, '/setup.js');
        assert.equal(script.status, 200);
        assert.ok(script.body.length > 1024, String(script.body.length));
        assert.equal(Number(script.headers.get('content-length')), script.body.length);
        noSecretIn(run, a.body);
        assertHealthy(run);
      } finally {
        await run.stop();
      }
    },
  ],
  [
    'setup mode: fuzzed requests (fast-check, raw TCP) never abort the board, and no answer or log line has a secret',
    async () => {
      const run = await bootBoard();
      try {
        const code = await setupCode(run);
        const port = run.listenerPort(SETUP_PORT);
        const statuses = new Map();
        const requests = fuzzedRequests(code, svc.url, 80);
        for (const r of requests) {
          const answer = await during(run, sendRaw(port, r.bytes, r.cut));
          const status = /^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1] ?? 'none';
          if (process.env.FUZZ_DEBUG)
            console.log(
              JSON.stringify(r.bytes.toString('latin1').slice(0, 160)),
              r.cut,
              '=>',
              JSON.stringify(answer.slice(0, 60)),
            );
          statuses.set(status, (statuses.get(status) ?? 0) + 1);
          for (const secret of r.secrets) assert.ok(!answer.includes(secret), `a secret in the answer: ${answer}`);
          assertHealthy(run);
        }
        const secrets = requests.flatMap((r) => r.secrets);
        for (const line of run.logs)
          for (const secret of secrets) assert.ok(!line.includes(secret), `a secret logged: ${line}`);
        // Still serving, nothing stored.
        assert.equal((await request(run, '/setup')).status, 200);
        assert.equal(configKeys().length, 0);
        for (const status of ['200', '400', '404', '413'])
          assert.ok(statuses.has(status), `no ${status}: ${[...statuses]}`);
        assert.ok(statuses.has('401') || statuses.has('429'), `no refused code: ${[...statuses]}`);
        console.log(`      (fuzzed answers: ${[...statuses].map(([s, n]) => `${s} x${n}`).join(', ')})`);
      } finally {
        await run.stop();
      }
    },
  ],
  [
    'setup mode: the right settings through npm run provision (200), then states reach the service without a restart',
    async () => {
      const run = await bootBoard();
      try {
        const code = await setupCode(run);
        const board = `http://127.0.0.1:${run.listenerPort(SETUP_PORT)}`;
        const cli = await during(
          run,
          provisionCli(['--board', board, '--service', svc.url, '--device', 'demo-001', '--code', code], {
            DDS_TOKEN: TOKEN,
          }),
        );
        assert.equal(cli.code, 0, cli.stdout + cli.stderr);
        assert.match(cli.stdout, /200 provisioned demo-001/);
        assert.equal(flash.get('config\u0000token')?.value, TOKEN);
        const since = clock.wallMs;
        const reported = await run.until(async () => {
          const r = await fetch(`${svc.url}/api/v1/states/read/last?device=demo-001`, { headers: ADMIN });
          const states = r.status === 200 ? await r.json() : [];
          return states.some(
            (s) => (typeof s.timestamp === 'number' ? s.timestamp * 1000 : Date.parse(s.timestamp)) >= since - 1000,
          );
        }, 60_000);
        assert.ok(reported, `no states after provisioning; log:\n${run.logs.slice(-30).join('\n')}`);
        assert.ok(run.logs.some((l) => l.includes('setup: provisioned; starting the agent')));
        noSecretIn(run, cli.stdout, cli.stderr);
        assertHealthy(run);
      } finally {
        await run.stop();
      }
    },
  ],
  [
    'setup mode: a second boot starts the agent directly',
    async () => {
      const run = await bootBoard();
      try {
        assert.ok(await run.until(() => run.logs.some((l) => l.includes('agent booting')), 10_000));
        assert.ok(!run.logs.some((l) => /setup code/.test(l)), 'no setup mode');
        assert.equal(run.listenerPort(SETUP_PORT), undefined, 'no setup server');
        assertHealthy(run);
      } finally {
        await run.stop();
      }
    },
  ],
  [
    'setup mode: the button held at boot enters setup mode and keeps the settings',
    async () => {
      flash.set('sim\u0000hold', { value: '0:1000' });
      const run = await bootBoard({ setupPin: 0 });
      try {
        await setupCode(run);
        assert.ok(run.logs.some((l) => l.includes('button held at boot')));
        await run.runFor(7_000);
        assert.equal(flash.get('config\u0000token')?.value, TOKEN, 'settings kept');
        const settings = JSON.parse((await request(run, '/setup')).body);
        assert.deepEqual(settings, { serviceUrl: svc.url, deviceKey: 'demo-001', token: 'set', provisioned: false });
        assertHealthy(run);
      } finally {
        await run.stop();
        flash.delete('sim\u0000hold');
      }
    },
  ],
  [
    'setup mode: the button held 5 s at boot is a factory reset (settings, cached configuration, outbox)',
    async () => {
      assert.ok(
        [...flash.keys()].some((k) => k.startsWith('agent\u0000')),
        'the agent stored its records',
      );
      flash.set('sim\u0000hold', { value: '0:6000' });
      const run = await bootBoard({ setupPin: 0 });
      try {
        await setupCode(run);
        assert.ok(await run.until(() => run.logs.some((l) => l.includes('factory reset')), 10_000));
        assert.deepEqual(configKeys(), []);
        assert.deepEqual(
          [...flash.keys()].filter((k) => k.startsWith('agent\u0000')),
          [],
        );
        assertHealthy(run);
      } finally {
        await run.stop();
        flash.delete('sim\u0000hold');
      }
    },
  ],
];

export async function cleanupSetup() {
  await svc?.close();
  rmSync(scratch, { recursive: true, force: true });
}
