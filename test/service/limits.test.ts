/**
 * Fair limits (decisions 6, limits): one token cannot stall the service or take
 * what others need. Repeated names in a read cost nothing, a read answers at
 * most `maxRecordsPerRead` records, deep JSON is refused before it is stored,
 * hub connections and negotiate tokens are bounded per access token.
 */
import { strict as assert } from 'node:assert';
import { maxRecordsPerRead } from '../../host-sim/service/api/reads.js';
import { ConnectionTokens } from '../../host-sim/service/hub/connection-tokens.js';
import type { ServiceOptions } from '../../host-sim/service/index.js';
import { demo, demoFixture, quietHub, seconds, useTestService } from './helpers.js';
import { RawHubClient } from './raw-hub-client.js';

type Obj = Record<string, unknown>;

describe('service fair limits', () => {
  const clients: RawHubClient[] = [];
  // A product metric that is no channel takes any bounded object (the nesting tests need one).
  const withBlobMetric = (): Partial<ServiceOptions> => {
    const fixture = demoFixture();
    fixture.products[0]?.metrics.push({ key: 'blob', aggregated: 'last', aggregatedLast: 'last' });
    return { ...quietHub, fixture };
  };
  const t = useTestService(withBlobMetric, { beforeClose: () => clients.splice(0).forEach((c) => c.ws.terminate()) });

  /** Writes `count` temperature points one second apart, ending now. */
  async function history(count: number): Promise<void> {
    for (let start = 0; start < count; start += 5000) {
      const n = Math.min(5000, count - start);
      const states = Array.from({ length: n }, (_, i) => ({
        channel: 'temperature.reported',
        value: start + i,
        timestamp: seconds(t.clock, (start + i - count) * 1000),
      }));
      const r = await t.post('/api/v1/states/write', { device: 'demo-001', states });
      assert.equal(r.status, 200, r.text);
    }
  }

  it('answers a channel named 40 times as if it were named once', async () => {
    await history(2000);
    const once = await t.get('/api/v1/states/read?devices=demo-001&channels=temperature.reported');
    const repeated = '&channels=temperature.reported'.repeat(40);
    const r = await t.get(`/api/v1/states/read?devices=demo-001${repeated}`);
    assert.equal(r.status, 200, r.text);
    assert.equal((r.json as Obj[]).length, 2000);
    assert.deepEqual(r.json, once.json);
    const body = await t.get(`/api/v1/measurements/read/last?device=demo-001${'&metrics=gps'.repeat(40)}`);
    assert.equal(body.status, 200, body.text);
  });

  it('refuses a raw read beyond maxRecordsPerRead with a 400 that says what to do, and answers it windowed', async () => {
    await history(maxRecordsPerRead + 1);
    const range = `timeRangeStart=-${maxRecordsPerRead + 10}s`;
    const raw = await t.get(`/api/v1/states/read?devices=demo-001&channels=temperature.reported&${range}`);
    assert.equal(raw.status, 400);
    assert.equal(raw.headers.get('content-type'), 'application/problem+json');
    assert.match((raw.json as Obj)['detail'] as string, /more than 10000 records.*windowPeriod/);
    const windowed = await t.get(
      `/api/v1/states/read?devices=demo-001&channels=temperature.reported&${range}&windowPeriod=1h`,
    );
    assert.equal(windowed.status, 200, windowed.text);
    assert.ok((windowed.json as Obj[]).length <= 4);
    const exact = await t.get(
      `/api/v1/states/read?devices=demo-001&channels=temperature.reported&timeRangeStart=-10000s`,
    );
    assert.equal(exact.status, 200, exact.text);
    assert.equal((exact.json as Obj[]).length, maxRecordsPerRead);
  });

  it('refuses a measurement value nested deeper than 32 levels with 400 and stores nothing', async () => {
    const deep = `${'{"a":'.repeat(4500)}1${'}'.repeat(4500)}`;
    const r = await t.post(
      '/api/v1/measurements/write',
      `{"device":"demo-001","measurements":[{"metric":"blob","value":${deep}}]}`,
    );
    assert.equal(r.status, 400);
    assert.match((r.json as Obj)['detail'] as string, /nested deeper than 32/);
    let ok: unknown = 1;
    for (let i = 0; i < 28; i++) ok = { a: ok };
    const fine = await t.post('/api/v1/measurements/write', {
      device: 'demo-001',
      measurements: [{ metric: 'blob', value: ok }],
    });
    assert.equal(fine.status, 200, fine.text);
    const last = await t.get('/api/v1/measurements/read/last?device=demo-001&metrics=blob');
    assert.deepEqual(((last.json as Obj[])[0] as Obj)['value'], ok);
  });

  it('caps hub connections per access token at 8 while other tokens still connect', async () => {
    for (let i = 0; i < 8; i++) clients.push(await RawHubClient.connect(t.service.url, demo.token1));
    await assert.rejects(RawHubClient.connect(t.service.url, demo.token1), /upgrade 503/);
    clients.push(await RawHubClient.connect(t.service.url, demo.token2));
    assert.equal(t.service.hub.connectionCount(), 9);
    (clients.shift() as RawHubClient).ws.close();
    await new Promise<void>((resolve) => {
      const check = (): void => (t.service.hub.connectionCount() === 8 ? resolve() : void setImmediate(check));
      check();
    });
    clients.push(await RawHubClient.connect(t.service.url, demo.token1));
  });

  it('keeps each access token its own negotiate tokens: 1,000 negotiates by one evict none of another', async function () {
    this.timeout(20_000);
    const negotiate = async (token: string): Promise<string> => {
      const r = await fetch(`${t.service.url}/hubs/properties/negotiate?negotiateVersion=1`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}` },
      });
      return ((await r.json()) as { connectionToken: string }).connectionToken;
    };
    const mine = await negotiate(demo.token2);
    for (let i = 0; i < 1000; i += 100) await Promise.all(Array.from({ length: 100 }, () => negotiate(demo.token1)));
    clients.push(await RawHubClient.open(t.service.url, demo.token2, mine));
  });

  it('bounds the connection token table per access token', () => {
    const tokens = new ConnectionTokens(() => 0, 30_000, 4);
    const b = tokens.issue('access-b');
    for (let i = 0; i < 100; i++) tokens.issue('access-a');
    assert.equal(tokens.size, 5);
    assert.equal(tokens.evicted, 96);
    assert.equal(tokens.redeem(b, 'access-b'), 'ok');
  });
});
