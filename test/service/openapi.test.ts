/**
 * The OpenAPI 3.1 document is generated from the route declarations
 * (host-sim/service/http/routes.ts): docs/openapi.json is that document, every
 * route Fastify serves is in it and every documented operation is served, and
 * real responses of every endpoint, successes and problems, validate against
 * it (the helpers check every response of the service suite the same way).
 */
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { openApiText } from '../../host-sim/service/http/openapi.js';
import { Paths } from '../../src/wire.js';
import { createServiceApp } from '../../host-sim/service/index.js';
import { demo, demoFixture, repoRoot, seconds, useTestService, type Reply } from './helpers.js';
import { checked, checkResponse, openApiAjv, openApiDoc } from './openapi-check.js';

type Obj = Record<string, unknown>;

describe('service OpenAPI document', () => {
  const t = useTestService({}, { once: true });
  const get = async (path: string, query = '', token?: string): Promise<Reply> => t.get(path + query, token);
  const post = async (path: string, body: unknown, token?: string): Promise<Reply> => t.post(path, body, token);

  it('is OpenAPI 3.1, equals docs/openapi.json and documents every route Fastify serves', async () => {
    assert.equal(openApiDoc.openapi, '3.1.0');
    const file = readFileSync(join(repoRoot, 'docs', 'openapi.json'), 'utf8');
    assert.equal(file, openApiText(), 'docs/openapi.json is stale: run npm run openapi');
    const built = await createServiceApp({ fixture: demoFixture() });
    await built.app.ready();
    // Fastify's `:name` is OpenAPI's `{name}` (the firmware images).
    const served = built.routes.map((r) => r.replace(/:(\w+)/g, '{$1}'));
    await built.close();
    assert.ok(served.length >= 20, served.join('\n'));
    for (const route of served) {
      const [method, path] = route.split(' ') as [string, string];
      assert.ok(openApiDoc.paths[path]?.[method.toLowerCase()], `${route} is served but not documented`);
    }
    // Every path the agent uses (its own copy of the specification's names) is documented.
    for (const path of Object.values(Paths)) assert.ok(openApiDoc.paths[path], `${path}: the agent uses it`);
    // Every documented operation is served (the hub's WebSocket upgrade aside).
    for (const [path, ops] of Object.entries(openApiDoc.paths)) {
      if (path === '/hubs/properties') continue;
      for (const m of Object.keys(ops)) assert.ok(served.includes(`${m.toUpperCase()} ${path}`), `${m} ${path}`);
    }
    // Every operation documents the framing and service answers too.
    for (const ops of Object.values(openApiDoc.paths))
      for (const [m, op] of Object.entries(ops))
        if (op.responses['200'] !== undefined && m !== 'get') {
          for (const s of ['400', '401', '403', '404', '408', '413', '431', '500', '503'])
            assert.ok(op.responses[s], s);
        }
    // The validator is not vacuous: a wrong shape fails.
    assert.equal(openApiAjv.validate('openapi#/components/schemas/Device', { uid: 1 }), false);
    assert.equal(
      openApiAjv.validate('openapi#/components/schemas/StateRecord', {
        channel: 'p:a.reported',
        value: 1,
        error: -5,
        aggregated: 'last',
        entity: 'e',
        timestamp: 1,
      }),
      false,
    );
    assert.throws(() => checkResponse('GET', '/api/v1/devices/get', 200, 'application/json', { uid: 1 }), /openapi/);
    assert.throws(() => checkResponse('GET', '/api/v1/devices/get', 418, 'application/json', {}), /not documented/);
  });

  it('serves the document at /openapi.json without a token', async () => {
    const r = await fetch(`${t.service.url}/openapi.json`);
    assert.equal(r.status, 200);
    assert.deepEqual(await r.json(), openApiDoc);
  });

  it('validates real responses of every endpoint against the document', async () => {
    const before = checked.count;
    const ts = seconds(t.clock, -30_000);
    await post('/api/v1/states/write', {
      device: 'demo-001',
      states: [
        { channel: 'temperature.reported', value: 20.5, timestamp: ts },
        { channel: 'relay.desired', value: true, timestamp: ts },
        { channel: 'gps.lat.reported', value: 52.5, timestamp: ts },
        { channel: 'pressure.reported', error: -19, timestamp: ts },
        { channel: 'note.reported', value: 3, timestamp: ts },
      ],
    });
    await post('/api/v1/measurements/write', {
      device: 'demo-001',
      measurements: [{ metric: 'gps', value: { lat: 1, lon: 2 }, timestamp: ts }],
    });
    const reads = [
      ['/api/v1/states/read', '?devices=demo-001'],
      ['/api/v1/states/read', '?devices=demo-001&windowPeriod=1m'],
      ['/api/v1/states/read/last', '?device=demo-001&channels=*.reported'],
      ['/api/v1/measurements/read', '?devices=demo-001&windowPeriod=10s'],
      ['/api/v1/measurements/read/last', '?device=demo-001'],
      ['/api/v1/devices/get', '?device=demo-001'],
      ['/api/v1/devices/list', '?q=demo'],
      ['/api/v1/products/get', `?product=${demo.product}`],
      ['/api/v1/products/list', ''],
      ['/api/v1/entities/relations/get', `?entity=${demo.device1}`],
      ['/api/v1/entities/relations/get', `?entity=${demo.product}`],
      ['/api/v1/properties/get', '?device=demo-001'],
      ['/api/v1/channels/list', '?device=demo-001'],
    ] as const;
    for (const [path, q] of reads) assert.equal((await get(path, q)).status, 200, path);
    assert.equal(((await get('/api/v1/states/read', '?devices=demo-001')).json as Obj[]).length, 5);
    await post('/api/v1/properties/get', { device: 'demo-001' });
    await post('/api/v1/properties/set', { device: 'demo-001', values: { 'sample-rate': 2 } });
    await post('/api/v1/devices/set', { device: 'demo-002', values: { name: 'Two' } });
    await post('/api/v1/products/set', { product: demo.product, values: { enabled: true } });
    await post('/api/v1/entities/relations/insert', { entity: demo.device2, parentEntity: demo.location });
    await post('/api/v1/entities/relations/update', {
      entity: demo.device2,
      fromParentEntity: demo.location,
      toParentEntity: demo.location,
    });
    await post('/api/v1/entities/relations/delete', { entity: demo.device2, parentEntity: demo.location });
    await post('/hubs/properties/negotiate?negotiateVersion=1', {});
    await post('/hubs/properties/negotiate', {});
    // Problems: 400, 401, 403, 404, 413, 405.
    await get('/api/v1/states/read', '?timeRangeStart=soon');
    await get('/api/v1/devices/list', '', 'bad');
    await get('/api/v1/devices/list', '', demo.token1);
    await get('/api/v1/devices/get', '?device=ghost');
    await post('/api/v1/states/write', { pad: 'x'.repeat(1024 * 1024) });
    await post('/api/v1/devices/get', {});
    assert.ok(checked.count - before >= 30, `checked ${checked.count - before}`);
  });
});
