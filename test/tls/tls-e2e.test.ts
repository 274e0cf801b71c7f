/**
 * End to end over TLS on loopback (docs/tls.md): the agent on
 * the Node target reports states and receives `.desired` through HTTPS and WSS
 * against the local service with a self-signed CA; the same agent refuses a
 * server whose certificate does not chain to its CA, or names another host,
 * says why (AgentError `tls` naming the host and the reason), and keeps
 * retrying on the injected clock.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { RunningService } from '../../host-sim/service/index.js';
import { isAgentError } from '../../src/errors.js';
import type { AgentError } from '../../src/errors.js';
import { FetchHttp } from '../../targets/node/http.js';
import type { SimulatedAgentRuntime } from '../../host-sim/hardware/agent.js';
import { NodeWebSocketFactory } from '../../targets/node/websocket.js';
import { pump, until } from '../e2e/support/harness.js';
import { FakeClock } from '../fakes/fake-clock.js';
import { FakeLogger } from '../fakes/fake-logger.js';
import { startTlsAgent, startTlsService, useTlsTest, writePem, type Pkis } from './support.js';

describe('tls: the Node agent against the local service over HTTPS and WSS', function () {
  this.timeout(30000);
  let service: RunningService | undefined;
  let run: SimulatedAgentRuntime | undefined;
  const t = useTlsTest(async () => {
    run?.stop();
    run = undefined;
    await service?.close();
    service = undefined;
  });

  /** HTTPS as the admin, trusting the test CA. */
  async function admin(path: string, body?: unknown): Promise<unknown> {
    const http = new FetchHttp({ tls: { ca: t.pkis.good.caPem } });
    const r = await http.request({
      method: body === undefined ? 'GET' : 'POST',
      url: `${service!.url}/api/v1/${path}`,
      headers: { authorization: 'Bearer admin-token-demo', 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    http.close();
    assert.equal(r.status, 200, r.body);
    return JSON.parse(r.body) as unknown;
  }

  it('reports states and receives .desired through HTTPS and WSS (self-signed CA via --ca)', async () => {
    const clock = new FakeClock(Date.now());
    service = await startTlsService(clock, t.pkis.good);
    assert.match(service.url, /^https:\/\/127\.0\.0\.1:\d+$/);
    assert.match(service.wsUrl, /^wss:\/\//);
    const log = new FakeLogger();
    const ca = writePem(t.dir.path, 'ca.pem', t.pkis.good.caPem);
    run = await startTlsAgent({
      url: service.url,
      clock,
      storeDir: join(t.dir.path, 'dev'),
      logger: log,
      extraArgs: ['--ca', ca],
    });
    const agent = run.agent;
    await until(() => run!.hub?.status === 'connected');
    await pump(clock, agent, 1100);
    assert.ok(agent.counters.sent > 0, 'states delivered over HTTPS');
    await admin('states/write', { device: 'demo-001', states: [{ channel: 'relay.desired', value: true }] });
    await until(() => run!.pins.output(5) === true);
    await pump(clock, agent, 1100);
    const last = (await admin('states/read/last?device=demo-001&channels=relay.reported')) as Array<{ value: unknown }>;
    assert.deepEqual(
      last.map((r) => r.value),
      [true],
    );
    assert.equal(agent.counters.queued, 0);
    log.assertNoErrors();
    assert.equal(log.find('warn', 'NOT CHECKED').length, 0, 'no insecure warning when certificates are checked');
  });

  for (const [name, pick, reason] of [
    ['a certificate from another CA', (p: Pkis) => p.otherCa, /UNABLE_TO_VERIFY_LEAF_SIGNATURE|unable to verify/],
    ['a certificate for another host name', (p: Pkis) => p.wrongHost, /ERR_TLS_CERT_ALTNAME_INVALID/],
  ] as const) {
    it(`refuses ${name}, says why, and keeps retrying with backoff`, async () => {
      const clock = new FakeClock(Date.now());
      const served = pick(t.pkis);
      service = await startTlsService(clock, served);
      const host = service.url.slice('https://'.length);
      // The agent trusts the good CA; for the wrong-host case the server's own CA, so only the name is wrong.
      const trusted = served === t.pkis.wrongHost ? t.pkis.wrongHost.caPem : t.pkis.good.caPem;
      const ca = writePem(t.dir.path, 'ca.pem', trusted);
      const log = new FakeLogger();
      const errors: AgentError[] = [];
      run = await startTlsAgent({
        url: service.url,
        clock,
        storeDir: join(t.dir.path, 'dev'),
        logger: log,
        extraArgs: ['--ca', ca],
      });
      const hub = run.hub!;
      hub.listen((state, error) => {
        if (state === 'waiting' && error !== undefined) errors.push(error);
      });
      // Hub: each attempt fails at negotiate with `tls`; one more per second of fake time.
      for (let attempts = 1; attempts <= 3; attempts++) {
        await until(() => errors.length >= attempts);
        clock.advance(1000);
      }
      for (const e of errors) {
        assert.ok(isAgentError(e, 'tls'), `${e.code}: ${e.message}`);
        assert.ok(e.message.includes(host), `names the host: ${e.message}`);
        assert.match(e.message, reason);
      }
      assert.match(log.find('warn', 'hub: waiting')[0]?.fields?.['reason'] as string, reason);
      // HTTP: the configuration read fails with the same reason and is retried every second of fake time.
      const first = log.find('warn', 'config: not read')[0]?.fields?.['reason'] as string;
      assert.ok(first.startsWith(`TLS check failed for ${host}`), first);
      assert.match(first, reason);
      const retries = (): number => log.find('debug', 'config: not read (retry)').length;
      for (let n = 1; n <= 3; n++) {
        clock.advance(1000);
        await until(() => retries() >= n);
      }
      assert.ok(log.find('debug', 'config: not read (retry)').every((l) => reason.test(String(l.fields?.['reason']))));
      assert.equal(run.agent.counters.sent, 0);
      // The WebSocket adapter gives the same reason for a wss:// address.
      const closed = await new Promise<string>((resolve) => {
        new NodeWebSocketFactory({ tls: { ca: trusted } }).connect(
          `${service!.wsUrl}/hubs/properties?id=x`,
          {},
          {
            onOpen: () => resolve('opened'),
            onMessage: () => undefined,
            onClose: resolve,
          },
        );
      });
      assert.ok(closed.includes(`TLS check failed for ${host}`), closed);
      assert.match(closed, reason);
    });
  }

  it('--insecure connects to any certificate and warns at startup and on every hub connect', async () => {
    const clock = new FakeClock(Date.now());
    service = await startTlsService(clock, t.pkis.wrongHost);
    const log = new FakeLogger();
    run = await startTlsAgent({
      url: service.url,
      clock,
      storeDir: join(t.dir.path, 'dev'),
      logger: log,
      extraArgs: ['--insecure'],
    });
    await until(() => run!.hub?.status === 'connected');
    const warnings = (): number => log.find('warn', 'TLS CERTIFICATES ARE NOT CHECKED').length;
    assert.equal(warnings(), 2, 'startup and the first connect');
    service.hub.dropAll();
    await until(() => run!.hub?.status === 'waiting');
    clock.advance(1000);
    await until(() => run!.hub?.status === 'connected');
    assert.equal(warnings(), 3, 'again on the reconnect');
    await pump(clock, run.agent, 1100);
    assert.ok(run.agent.counters.sent > 0);
  });

  it('an unreadable or non-PEM --ca stops the start with config.invalid', async () => {
    const clock = new FakeClock(Date.now());
    const notPem = writePem(t.dir.path, 'x.pem', 'hello');
    for (const path of [notPem, join(t.dir.path, 'missing.pem')]) {
      await assert.rejects(
        startTlsAgent({
          url: 'https://127.0.0.1:1',
          clock,
          storeDir: t.dir.path,
          logger: new FakeLogger(),
          extraArgs: ['--ca', path],
        }),
        (e) => isAgentError(e, 'config.invalid') && e.message.includes(path),
      );
    }
  });
});
