/**
 * The dashboard's server side: the static assets of build/dashboard served at
 * `/` and `/dashboard/*` with their types and caching (revalidated page,
 * immutable hashed files, 304 on a matching ETag), the API untouched beside
 * them, a clear 503 when the dashboard is not built, and the hub's
 * `observe=1` connections that also receive `.reported` states and
 * measurements (and only of the devices their token may see).
 */
import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import { loadDashboard } from '../../host-sim/dashboard/assets.js';
import { RecordDecoder } from '../../src/signalr/record-codec.js';
import { demo, quietHub, useTestService } from '../service/helpers.js';

describe('dashboard assets', () => {
  const t = useTestService(quietHub, { once: true });

  it('serves the page at / as HTML that must be revalidated, and its hashed script and styles as immutable', async () => {
    const page = await fetch(`${t.service.url}/`);
    assert.equal(page.status, 200);
    assert.equal(page.headers.get('content-type'), 'text/html; charset=utf-8');
    assert.equal(page.headers.get('cache-control'), 'no-cache');
    const html = await page.text();
    const js = /src="(\/dashboard\/app-[\w-]+\.js)"/.exec(html)?.[1];
    const css = /href="(\/dashboard\/app-[\w-]+\.css)"/.exec(html)?.[1];
    assert.ok(js && css, `script and stylesheet referenced: ${html}`);
    const script = await fetch(`${t.service.url}${js}`);
    assert.equal(script.headers.get('content-type'), 'text/javascript; charset=utf-8');
    assert.equal(script.headers.get('cache-control'), 'public, max-age=31536000, immutable');
    assert.ok((await script.text()).length > 1000);
    const style = await fetch(`${t.service.url}${css}`);
    assert.equal(style.headers.get('content-type'), 'text/css; charset=utf-8');
    assert.match(await style.text(), /\.uplot/);
  });

  it('answers 304 to a matching If-None-Match, and HEAD without a body', async () => {
    const first = await fetch(`${t.service.url}/`);
    const etag = first.headers.get('etag');
    assert.ok(etag);
    const again = await fetch(`${t.service.url}/`, { headers: { 'If-None-Match': etag } });
    assert.equal(again.status, 304);
    const head = await fetch(`${t.service.url}/index.html`, { method: 'HEAD' });
    assert.equal(head.status, 200);
    assert.equal(await head.text(), '');
  });

  it('leaves the API and unknown paths to the router (401, 404 problem+json, 405)', async () => {
    assert.equal((await fetch(`${t.service.url}/api/v1/devices/list`)).status, 401);
    const missing = await fetch(`${t.service.url}/dashboard/../api/v1/devices/list`);
    assert.equal(missing.status, 401, 'a dot path is normalised by the client and reaches the API, never a file');
    const unknown = await fetch(`${t.service.url}/dashboard/nope.js`);
    assert.equal(unknown.status, 404);
    assert.equal(unknown.headers.get('content-type'), 'application/problem+json');
    assert.equal((await fetch(`${t.service.url}/`, { method: 'POST', body: '{}' })).status, 404);
  });

  it('serves only the files present at load time, and a 503 that says to build when there is no page', () => {
    const dir = mkdtempSync(join(tmpdir(), 'dds-dash-'));
    try {
      const none = loadDashboard(dir);
      assert.equal(none('/')?.status, 503);
      assert.match(String(none('/')?.body), /npm run build/);
      assert.equal(none('/dashboard/x.js'), undefined);
      mkdirSync(join(dir, 'assets'));
      writeFileSync(join(dir, 'index.html'), '<!doctype html>');
      writeFileSync(join(dir, 'assets', 'app-1.js'), 'export {}');
      writeFileSync(join(dir, 'secret.txt'), 'no');
      const built = loadDashboard(dir);
      assert.equal(built('/')?.status, 200);
      assert.equal(built('/dashboard/app-1.js')?.contentType, 'text/javascript; charset=utf-8');
      assert.equal(built('/dashboard/../secret.txt'), undefined);
      assert.equal(built('/secret.txt'), undefined);
      assert.equal(built('/dashboard/'), undefined);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

/** A hub connection as the dashboard opens it: access token in the query, `observe` as asked. */
async function connect(
  url: string,
  token: string,
  observe: boolean,
): Promise<{ records: Record<string, unknown>[]; ws: WebSocket }> {
  const n = await fetch(`${url}/hubs/properties/negotiate?negotiateVersion=1`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}` },
  });
  const { connectionToken } = (await n.json()) as { connectionToken: string };
  const q = new URLSearchParams({ id: connectionToken, access_token: token, ...(observe ? { observe: '1' } : {}) });
  const ws = new WebSocket(`${url.replace(/^http/, 'ws')}/hubs/properties?${q.toString()}`);
  const records: Record<string, unknown>[] = [];
  const decoder = new RecordDecoder(1 << 20);
  ws.on('message', (data) => decoder.push(String(data), (r) => records.push(JSON.parse(r) as Record<string, unknown>)));
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  ws.send('{"protocol":"json","version":1}\u001e');
  await waitFor(() => records.length >= 1);
  return { records, ws };
}

async function waitFor(done: () => boolean, limitMs = 2000): Promise<void> {
  const start = Date.now();
  while (!done()) {
    if (Date.now() - start > limitMs) throw new Error('waitFor: not in time');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

const notifies = (records: Record<string, unknown>[]): Record<string, unknown>[] =>
  records
    .filter((r) => r['type'] === 1 && r['target'] === 'Notify')
    .map((r) => (r['arguments'] as Record<string, unknown>[])[0] ?? {});

describe('hub observers (the dashboard)', () => {
  const t = useTestService(quietHub);

  it('push .reported states and measurements to observing connections only, within the token scope', async () => {
    const admin = await connect(t.service.url, demo.admin, true);
    const own = await connect(t.service.url, demo.token1, true);
    const other = await connect(t.service.url, demo.token2, true);
    const agent = await connect(t.service.url, demo.token1, false);
    try {
      const ts = t.clock.nowMs / 1000;
      const w = await t.post(
        '/api/v1/states/write',
        {
          device: 'demo-001',
          states: [
            { channel: 'temperature.reported', value: 21.5, timestamp: ts },
            { channel: 'door.reported', error: -110, timestamp: ts },
          ],
        },
        demo.token1,
      );
      assert.equal(w.status, 200);
      const m = await t.post(
        '/api/v1/measurements/write',
        {
          device: 'demo-001',
          measurements: [{ metric: 'gps', value: { lat: 52.1, lon: 4.3, hdop: 0.9, sats: 9 }, timestamp: ts }],
        },
        demo.token1,
      );
      assert.equal(m.status, 200);
      await waitFor(() => notifies(admin.records).length >= 2 && notifies(own.records).length >= 2);
      const [states, measurements] = notifies(own.records);
      assert.deepEqual(states, {
        type: 'states',
        entity: demo.device1,
        states: [
          {
            channel: `${demo.product}:temperature.reported`,
            value: 21.5,
            aggregated: 'last',
            entity: demo.device1,
            timestamp: ts,
          },
          {
            channel: `${demo.product}:door.reported`,
            error: -110,
            aggregated: 'last',
            entity: demo.device1,
            timestamp: ts,
          },
        ],
      });
      assert.deepEqual(measurements, {
        type: 'measurements',
        entity: demo.device1,
        measurements: [
          {
            metric: `${demo.product}:gps`,
            value: { lat: 52.1, lon: 4.3, hdop: 0.9, sats: 9 },
            aggregated: 'last',
            entity: demo.device1,
            timestamp: ts,
          },
        ],
      });
      assert.deepEqual(notifies(admin.records), notifies(own.records));
      // A desired write still reaches every connection of the device, the agent's included.
      await t.post('/api/v1/states/write', { device: 'demo-001', states: [{ channel: 'relay.desired', value: true }] });
      await waitFor(() => notifies(agent.records).length === 1 && notifies(own.records).length === 3);
      assert.equal((notifies(agent.records)[0]?.['states'] as unknown[]).length, 1);
      assert.equal(notifies(other.records).length, 0, 'another device token sees nothing of demo-001');
    } finally {
      for (const c of [admin, own, other, agent]) c.ws.terminate();
    }
  });
});
