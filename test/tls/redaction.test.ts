/**
 * Secrets never reach the output (docs/tls.md): every log path reachable with a
 * known access token — startup, configuration failure, HTTP 401/403, network
 * failures, hub negotiate / connect / refusal / reconnect, TLS failure,
 * shutdown, crash reports — runs through the real Node logger format, and the
 * captured text must hold neither the token nor any hub connection token (as
 * written or URL-encoded). The composition root (`main.js`) runs as a child
 * process for the paths it owns (argument and config errors, its own lines).
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RunningService } from '../../host-sim/service/index.js';
import type { HttpRequest, HttpResponse, HttpTransport } from '../../src/ports.js';
import { FetchHttp } from '../../targets/node/http.js';
import { ConsoleLogger, crashReport } from '../../targets/node/logger.js';
import { parseOptions } from '../../targets/node/options.js';
import { loadTlsOptions, startNodeAgent, type NodeAgentRuntime } from '../../targets/node/runtime.js';
import { FileStore } from '../../targets/node/store.js';
import { until } from '../e2e/support/harness.js';
import { FakeClock } from '../fakes/fake-clock.js';
import { fixtureWithTokens, startTlsService, useTlsTest, writePem } from './support.js';

const token = 'tok/SECRET+4f1c9a77e2';
const otherDeviceToken = 'tok-OTHER-DEVICE-55aa21';
const unknownToken = 'tok-UNKNOWN-0b7e3d19';
const mainJs = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'targets', 'node', 'main.js');

/** Negotiate answers seen on the wire: their connection tokens are secrets too. */
class SpyHttp implements HttpTransport {
  readonly connectionTokens: string[] = [];
  constructor(private readonly inner: HttpTransport) {}
  async request(request: HttpRequest): Promise<HttpResponse> {
    const response = await this.inner.request(request);
    if (request.url.includes('/negotiate') && response.status === 200) {
      const body = JSON.parse(response.body) as { connectionToken?: string };
      if (body.connectionToken !== undefined) this.connectionTokens.push(body.connectionToken);
    }
    return response;
  }
}

function runMain(args: string[], stopWhen?: RegExp): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [mainJs, ...args], { env: { PATH: process.env['PATH'] ?? '' } });
    let out = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), 10000);
    const take = (chunk: Buffer): void => {
      out += chunk.toString('utf8');
      if (stopWhen?.test(out) === true && child.exitCode === null) child.kill('SIGTERM');
    };
    child.stdout.on('data', take);
    child.stderr.on('data', take);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve(`${out}\nexit ${code}`);
    });
  });
}

describe('tls: secrets never reach a log line, an error message or a crash report', function () {
  this.timeout(30000);
  const services: RunningService[] = [];
  const runs: NodeAgentRuntime[] = [];
  const output: string[] = [];
  const secrets: string[] = [token, otherDeviceToken, unknownToken];
  const t = useTlsTest(async () => {
    for (const run of runs.splice(0)) run.stop();
    for (const s of services.splice(0)) await s.close();
  });

  afterEach(function () {
    if (this.currentTest?.state === 'failed') console.log(output.join('\n'));
    output.length = 0;
  });

  function assertClean(): void {
    const text = output.join('\n');
    assert.ok(text.length > 0);
    for (const secret of secrets) {
      for (const form of [secret, encodeURIComponent(secret)]) {
        assert.ok(!text.includes(form), `a secret leaked: ${form}\n${text}`);
      }
    }
  }

  async function agent(url: string, clock: FakeClock, agentToken: string, args: string[] = []) {
    const options = parseOptions(
      ['--service', url, '--device', 'demo-001', '--token', agentToken, '--log-level', 'debug', ...args],
      {},
      () => '',
    );
    const http = new SpyHttp(new FetchHttp({ tls: loadTlsOptions(options) }));
    const retry = { nextDelayMs: () => 1000 };
    const run = await startNodeAgent(options, {
      clock,
      http,
      logger: new ConsoleLogger('debug', (line) => output.push(line)),
      store: new FileStore(join(t.dir.path, `dev-${runs.length}`)),
      agent: { retry },
      hubOptions: { retry },
    });
    runs.push(run);
    return { run, http };
  }

  it('the agent over TLS: startup, hub connect, reconnect, refusal, 401/403, shutdown', async () => {
    const clock = new FakeClock(Date.now());
    const service = await startTlsService(clock, t.pkis.good, fixtureWithTokens(token));
    services.push(service);
    // Connected, then dropped and reconnected (a second connection token), then refused (403).
    const { run, http } = await agent(service.url, clock, token, [
      '--ca',
      writePem(t.dir.path, 'ca.pem', t.pkis.good.caPem),
    ]);
    await until(() => run.hub?.status === 'connected');
    service.hub.dropAll();
    await until(() => run.hub?.status === 'waiting');
    clock.advance(1000);
    await until(() => run.hub?.status === 'connected' && http.connectionTokens.length === 2);
    // Whatever code logs an address with the current connection token, or the token itself, is redacted.
    const current = http.connectionTokens[1]!;
    run.logger.log('info', `leak probe ${service.wsUrl}/hubs/properties?id=${encodeURIComponent(current)}`, {
      header: `Bearer ${token}`,
    });
    service.hub.faults.refuseWith = 403;
    service.hub.dropAll();
    await until(() => run.hub?.status === 'waiting');
    clock.advance(1000);
    await until(() => output.some((l) => l.includes('negotiate HTTP 403')));
    secrets.push(...http.connectionTokens);
    // 401: a token the service does not know; 403: another device's token.
    const unknown = await agent(service.url, clock, unknownToken, [
      '--ca',
      writePem(t.dir.path, 'ca.pem', t.pkis.good.caPem),
    ]);
    await until(() => unknown.run.hub?.status === 'waiting');
    run.stop();
    unknown.run.stop();
    output.push(
      crashReport('uncaught exception', new Error(`boom with ${token} in it`), run.logger.redact.bind(run.logger)),
    );
    assert.ok(output.some((l) => l.includes('leak probe') && l.includes('[redacted]')));
    assert.ok(output.some((l) => l.includes('config: token refused') && l.includes('401')));
    assert.ok(output.some((l) => l.includes('boom with [redacted]')));
    for (const line of ['hub: connected', 'negotiate HTTP 403', 'hub: stopped']) {
      assert.ok(
        output.some((l) => l.includes(line)),
        `the path was driven: ${line}`,
      );
    }
    assertClean();
  });

  it('TLS failure, network failure, and a 403 for another device', async () => {
    const clock = new FakeClock(Date.now());
    const service = await startTlsService(clock, t.pkis.otherCa, fixtureWithTokens(token));
    services.push(service);
    const tls = await agent(service.url, clock, token, ['--ca', writePem(t.dir.path, 'ca.pem', t.pkis.good.caPem)]);
    await until(() => output.some((l) => l.includes('TLS check failed')));
    const closed = await startTlsService(clock, t.pkis.good, fixtureWithTokens(token));
    const gone = closed.url;
    await closed.close();
    await agent(gone, clock, token, ['--ca', writePem(t.dir.path, 'ca.pem', t.pkis.good.caPem)]);
    await until(() => output.some((l) => l.includes('no response from')));
    const plain = await startTlsService(clock, t.pkis.good, fixtureWithTokens(otherDeviceToken));
    services.push(plain);
    const ca = writePem(t.dir.path, 'ca.pem', t.pkis.good.caPem);
    await agent(plain.url, clock, 'device-token-demo-002', ['--ca', ca]);
    await until(() => output.some((l) => l.includes('403')));
    tls.run.stop();
    assertClean();
  });

  it('main.js: argument and config errors, start failures and its own lines are redacted', async () => {
    const bad = join(t.dir.path, 'bad.json');
    writeFileSync(bad, `{"token": "${token}" "device": "demo-001"}`);
    const good = join(t.dir.path, 'good.json');
    writeFileSync(good, JSON.stringify({ token, device: 'demo-001', service: 'http://127.0.0.1:9' }));
    output.push(await runMain(['--service', 'http://127.0.0.1:9', '--token', token, token]));
    output.push(await runMain(['--config', bad]));
    output.push(await runMain(['--config', good, '--ca', join(t.dir.path, `missing-${token}.pem`)]));
    output.push(await runMain(['--config', good, '--log-level', 'debug'], /hub: waiting/));
    const all = output.join('\n');
    assert.match(all, /unexpected argument "\[redacted\]"/);
    assert.match(all, /not valid JSON/);
    assert.match(all, /--ca .*missing-\[redacted\]\.pem/);
    assert.match(all, /stopped/);
    assertClean();
  });
});
