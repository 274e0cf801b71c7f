/**
 * The Node target keeps its connection: a few hundred requests of the agent's service client
 * (configuration reads and state writes, as the agent sends them) through FetchHttp reach the local
 * service over one TCP connection, over plain HTTP (fetch, undici's pool) and over HTTPS with a private
 * CA (node:https with a keep-alive Agent); the service counts the connections it accepted
 * (host-sim/service/http/connections.ts). Binary answers come back as bytes.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startService, type RunningService } from '../../host-sim/service/index.js';
import { generatePki, hasOpenssl } from '../../host-sim/tls/pki.js';
import { ServiceClient } from '../../src/service/client.js';
import { Paths } from '../../src/wire.js';
import { FetchHttp } from '../../targets/node/http.js';

const fixture = join(
  fileURLToPath(new URL('../../..', import.meta.url)),
  'host-sim',
  'service',
  'fixtures',
  'demo.json',
);
const REQUESTS = 300;

/**
 * REQUESTS calls of the agent's kind, alternating a configuration read and a state write; all must succeed.
 * With `turn`, one turn of the event loop between two (the agent's requests follow timers and promise
 * chains, never the very tick an answer completed); without, back to back.
 */
async function agentRequests(http: FetchHttp, service: RunningService, turn = true): Promise<void> {
  const client = new ServiceClient(http, { baseUrl: service.url, device: 'demo-001', token: 'device-token-demo-001' });
  for (let i = 0; i < REQUESTS; i++) {
    if (turn) await new Promise((done) => setImmediate(done));
    if (i % 2 === 0) assert.equal(typeof (await client.ofDevice(Paths.channelsList)), 'object');
    else {
      const states = `"states":[{"channel":"relay.reported","value":${i % 4 === 1},"timestamp":${Date.now() / 1000}}]}`;
      await client.post(Paths.statesWrite, client.devicePrefix() + states);
    }
  }
}

describe('Node target: one kept-alive connection', function () {
  this.timeout(120_000);
  // The test counts connections, not budgets: 300 requests back to back are over the default burst of 200.
  const unbounded = { ratePerSecond: 1e6, burst: 1e6 };
  let service: RunningService | undefined;
  let http: FetchHttp | undefined;

  afterEach(async () => {
    http?.close();
    await service?.close();
    service = undefined;
  });

  it(`${REQUESTS} agent requests over plain HTTP (fetch) use one TCP connection`, async () => {
    service = await startService({ fixture, limits: unbounded });
    http = new FetchHttp();
    await agentRequests(http, service);
    assert.equal(service.connections.accepted, 1, `${service.connections.accepted} connections`);
  });

  it(`${REQUESTS} requests back to back over plain HTTP (fetch) use at most two TCP connections`, async () => {
    // undici frees a connection a tick after its answer completes: a request sent in that very tick opens a
    // second one, and the pool then reuses both.
    service = await startService({ fixture, limits: unbounded });
    http = new FetchHttp();
    await agentRequests(http, service, false);
    assert.ok(service.connections.accepted <= 2, `${service.connections.accepted} connections`);
  });

  it(`${REQUESTS} agent requests over HTTPS with a private CA use one TLS connection; binary bodies are bytes`, async function () {
    if (!hasOpenssl()) {
      console.log('    skipped: openssl is not on PATH (it makes the test CA)');
      this.skip();
    }
    const pki = generatePki({ ipAddresses: ['127.0.0.1'] });
    service = await startService({
      fixture,
      limits: unbounded,
      tls: { cert: pki.certPem + pki.caPem, key: pki.keyPem },
    });
    http = new FetchHttp({ tls: { ca: pki.caPem } });
    await agentRequests(http, service);
    const headers = { authorization: 'Bearer device-token-demo-001' };
    const r = await http.request({
      method: 'GET',
      url: `${service.url}${Paths.channelsList}?device=demo-001`,
      headers,
      binary: true,
    });
    assert.equal(r.body, '');
    assert.ok(r.bytes instanceof Uint8Array && r.bytes.length > 0);
    assert.equal(typeof JSON.parse(Buffer.from(r.bytes).toString('utf8')), 'object');
    assert.equal(service.connections.accepted, 1, `${service.connections.accepted} connections`);
    assert.equal(service.connections.tls, 1);
  });
});
