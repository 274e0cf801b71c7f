/**
 * Operations (decisions 10): `/healthz` answers 200 with the version while the
 * database can be written and 503 with `Retry-After` while it cannot (another
 * connection holds its write lock); `/metrics` answers an admin the Prometheus
 * text format, read back here by a Prometheus text parser; every page, asset and
 * answer carries the security headers (the attack run framed the page).
 */
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import tmp from 'tmp';
import { demo, quietHub, repoRoot, startTestService, type TestService } from './helpers.js';
import { RawHubClient } from './raw-hub-client.js';

const version = (JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { version: string }).version;

describe('service operations', () => {
  let t: TestService | undefined;
  let dir: tmp.DirResult;
  beforeEach(() => {
    dir = tmp.dirSync({ unsafeCleanup: true });
  });
  afterEach(async () => {
    await t?.service.close();
    t = undefined;
    dir.removeCallback();
  });

  it('answers /healthz 200 with the version, and 503 with Retry-After while storage cannot be written', async () => {
    const dbPath = join(dir.name, 'dds.db');
    t = await startTestService({ ...quietHub, dbPath });
    const ok = await fetch(`${t.service.url}/healthz`);
    assert.equal(ok.status, 200);
    assert.deepEqual(await ok.json(), { status: 'ok', version });
    const other = new Database(dbPath);
    try {
      other.exec('BEGIN IMMEDIATE'); // holds the write lock: the service cannot write
      const down = await fetch(`${t.service.url}/healthz`);
      assert.equal(down.status, 503);
      assert.equal(down.headers.get('retry-after'), '5');
      assert.match(((await down.json()) as { detail: string }).detail, /storage cannot be written/);
      other.exec('ROLLBACK');
    } finally {
      other.close();
    }
    assert.equal((await fetch(`${t.service.url}/healthz`)).status, 200);
  });

  it('answers /metrics to an admin only, in the Prometheus text format with the contract metrics', async () => {
    t = await startTestService(quietHub);
    const hub = await RawHubClient.connect(t.service.url, demo.token1);
    try {
      await t.post('/api/v1/states/write', {
        device: 'demo-001',
        states: [
          { channel: 'temperature.reported', value: 1 },
          { channel: 'door.reported', value: true },
        ],
      });
      await t.get('/api/v1/devices/get?device=ghost'); // a 404
      assert.equal((await t.get('/metrics', demo.token1)).status, 403);
      assert.equal((await fetch(`${t.service.url}/metrics`)).status, 401);
      const r = await fetch(`${t.service.url}/metrics`, { headers: { Authorization: `Bearer ${demo.admin}` } });
      assert.equal(r.status, 200);
      assert.match(r.headers.get('content-type') ?? '', /^text\/plain; version=0\.0\.4/);
      const text = await r.text();
      const families = new Map(parsePrometheusTextFormat(text).map((f) => [f.name, f]));
      const requests = families.get('dds_http_requests_total');
      assert.equal(requests?.type, 'COUNTER');
      const count = (route: string, status: string): number =>
        Number(requests?.metrics.find((m) => m.labels?.['route'] === route && m.labels['status'] === status)?.value);
      assert.equal(count('/api/v1/states/write', '200'), 1);
      assert.equal(count('/api/v1/devices/get', '404'), 1);
      const durations = families.get('dds_http_request_duration_seconds');
      assert.equal(durations?.type, 'HISTOGRAM');
      // The parser folds a histogram's label sets into one (prom2json's shape keeps no labels there): its
      // per-route count is read from the text, its buckets from the parser.
      assert.ok(durations?.metrics[0]?.buckets?.['+Inf'] !== undefined);
      assert.match(
        text,
        /^dds_http_request_duration_seconds_count\{route="\/api\/v1\/states\/write",method="POST"\} 1$/m,
      );
      assert.equal(families.get('dds_hub_connections')?.metrics[0]?.value, '1');
      const states = families.get('dds_records_written_total')?.metrics.find((m) => m.labels?.['kind'] === 'states');
      assert.equal(states?.value, '2');
      assert.ok(Number(families.get('dds_storage_bytes')?.metrics[0]?.value) > 0);
      assert.equal(families.get('dds_rate_limited')?.type, 'GAUGE');
    } finally {
      hub.ws.terminate();
    }
  });

  it('puts CSP (no inline script, frame-ancestors none), nosniff and no-referrer on every page, asset and answer', async () => {
    t = await startTestService(quietHub);
    const page = await fetch(`${t.service.url}/`);
    assert.equal(page.status, 200);
    const html = await page.text();
    const script = /<script type="module" src="([^"]+)"/.exec(html)?.[1];
    assert.ok(script, 'the page loads its script from a file');
    assert.doesNotMatch(html, /<script(?![^>]*\bsrc=)[^>]*>/, 'no inline script');
    for (const path of ['/', script, '/no-such-page', '/api/v1/devices/list', '/healthz', '/openapi.json']) {
      const r = await fetch(`${t.service.url}${path}`, { headers: { Authorization: `Bearer ${demo.admin}` } });
      const csp = r.headers.get('content-security-policy') ?? '';
      assert.match(csp, /frame-ancestors 'none'/, path);
      assert.match(csp, /script-src 'self'(;|$)/, path);
      assert.doesNotMatch(csp, /script-src[^;]*'unsafe-inline'/, path);
      assert.equal(r.headers.get('x-content-type-options'), 'nosniff', path);
      assert.equal(r.headers.get('referrer-policy'), 'no-referrer', path);
    }
  });
});
