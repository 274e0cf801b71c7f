/**
 * The request declarations (host-sim/service/http/routes.ts) reject hostile
 * input with a 400 problem naming the parameter, in process through Fastify's
 * `inject`: repeated single-valued names, millisecond timestamps, Durations as
 * write timestamps, impossible dates, overflowing Durations, windowPeriod=1e400,
 * JSON nested 4,500 deep, wrong types; and nothing of a rejected write is stored.
 * Which of them the schema refuses and which the code (calendar, time window)
 * is checked too: the schema's own validator refuses the shape-level ones.
 */
import { strict as assert } from 'node:assert';
import { Ajv } from 'ajv';
import { routeSpec } from '../../host-sim/service/http/routes.js';
import { requestTimeoutMs } from '../../host-sim/service/http/server.js';
import { buildTestApp, demo, type Reply } from './helpers.js';

type Obj = Record<string, unknown>;
type App = Awaited<ReturnType<typeof buildTestApp>>;

function assertProblem(r: Reply, detail: RegExp, what: string): void {
  assert.equal(r.status, 400, `${what}: ${r.text}`);
  assert.equal(r.headers.get('content-type'), 'application/problem+json', what);
  const body = r.json as Obj;
  assert.equal(body['status'], 400, what);
  assert.equal(body['type'], 'about:blank', what);
  assert.match(String(body['detail']), detail, what);
}

describe('service request schemas (inject)', () => {
  let app: App;
  beforeEach(async () => {
    app = await buildTestApp();
  });
  afterEach(async () => {
    await app.close();
  });
  const write = (states: unknown): Promise<Reply> =>
    app.request('POST', '/api/v1/states/write', JSON.stringify({ device: 'demo-001', states }));

  it('refuses repeated single-valued names in every read and get', async () => {
    for (const url of [
      '/api/v1/devices/get?device=demo-001&device=demo-002',
      `/api/v1/products/get?product=${demo.product}&product=${demo.product}`,
      '/api/v1/states/read?devices=demo-001&timeRangeStart=-1h&timeRangeStart=-2h',
      '/api/v1/states/read?windowPeriod=1m&windowPeriod=2m',
      '/api/v1/states/read/last?device=demo-001&device=demo-001',
      '/api/v1/measurements/read/last?device=demo-001&timeRangeStart=-1h&timeRangeStart=-2h',
      '/api/v1/devices/list?i=1&i=2',
      `/api/v1/entities/relations/get?entity=${demo.device1}&entity=${demo.device1}`,
    ]) {
      assertProblem(await app.request('GET', url), /^\w+: expected one value, got 2$/, url);
    }
  });

  it('refuses read times in milliseconds, overflowing or positive Durations, impossible dates and 1e400', async () => {
    const cases: [string, RegExp][] = [
      ['timeRangeStart=1700000000000', /^timeRangeStart: expected Unix seconds/],
      ['timeRangeStart=-99999999999y', /^timeRangeStart: .* is outside 1970-01-01 \.\. 9999-12-31/],
      ['timeRangeStart=1h', /^timeRangeStart: expected Unix seconds/],
      ['timeRangeStart=2024-02-30', /^timeRangeStart: "2024-02-30" is not a real ISO 8601 date/],
      ['timeRangeStop=1e400', /^timeRangeStop: expected Unix seconds/],
      ['timeRangeStart=NaN', /^timeRangeStart: expected Unix seconds/],
      ['windowPeriod=1e400', /^windowPeriod: expected seconds or a positive Duration/],
      ['windowPeriod=-1m', /^windowPeriod: expected seconds or a positive Duration/],
      ['windowPeriod=1mo', /^windowPeriod: calendar units/],
    ];
    for (const [q, detail] of cases) {
      assertProblem(await app.request('GET', `/api/v1/states/read?devices=demo-001&${q}`), detail, q);
      assertProblem(await app.request('GET', `/api/v1/measurements/read?devices=demo-001&${q}`), detail, q);
    }
    const last = await app.request('GET', '/api/v1/states/read/last?device=demo-001&timeRangeStart=1700000000000');
    assertProblem(last, /^timeRangeStart: /, 'read/last ms');
  });

  it('refuses bad write timestamps, values and entries, and stores nothing', async () => {
    const ok = { channel: 'temperature.reported', value: 1 };
    const cases: [unknown, RegExp][] = [
      [[ok, { ...ok, timestamp: '1h' }], /^states\[1\]\.timestamp: expected Unix seconds \(a number\) or an ISO 8601/],
      [[ok, { ...ok, timestamp: '2024-02-30' }], /^states\[1\]\.timestamp: expected Unix seconds/],
      [[ok, { ...ok, timestamp: app.clock.nowMs }], /^states\[1\]\.timestamp: .*milliseconds/],
      [[ok, { ...ok, timestamp: '-99999999999y' }], /^states\[1\]\.timestamp: expected Unix seconds/],
      [[ok, { ...ok, value: { no: 'objects' } }], /^states\[1\]\.value: expected a boolean, number or string/],
      [[ok, { ...ok, error: 5, value: undefined }], /^states\[1\]\.error: expected a negative POSIX error/],
      [[ok, { value: 1 }], /^states\[1\]\.channel is required$/],
      [[ok, 'x'], /^states\[1\]: expected an object/],
      ['all', /^states: expected an array/],
      [Array.from({ length: 10_001 }, () => ok), /^states: at most 10000 entries per request$/],
    ];
    for (const [states, detail] of cases)
      assertProblem(await write(states), detail, JSON.stringify(states).slice(0, 80));
    const m = await app.request(
      'POST',
      '/api/v1/measurements/write',
      JSON.stringify({ device: 'demo-001', measurements: [{ metric: 'gps', value: [1], timestamp: 'soon' }] }),
    );
    assertProblem(m, /^measurements\[0\]\.value: expected a boolean, number, string or object/, 'measurement');
    const stored = await app.request('GET', '/api/v1/states/read/last?device=demo-001');
    assert.deepEqual(stored.json, []);
  });

  it('refuses JSON nested 4,500 deep, malformed JSON, non-objects and wrong types', async () => {
    const deep = `${'{"a":'.repeat(4500)}1${'}'.repeat(4500)}`;
    const bodies: [string, string, RegExp][] = [
      [
        '/api/v1/measurements/write',
        `{"device":"demo-001","measurements":[{"metric":"gps","value":${deep}}]}`,
        /nested deeper than 32/,
      ],
      ['/api/v1/states/write', `${'['.repeat(4500)}${']'.repeat(4500)}`, /nested deeper than 32/],
      ['/api/v1/states/write', '{"device": ', /^body: malformed JSON/],
      ['/api/v1/states/write', '[1]', /^body: expected a JSON object$/],
      ['/api/v1/states/write', '{"device":5,"states":[]}', /^device: expected a string, got 5$/],
      [
        '/api/v1/states/write',
        '{"device":"demo-001","states":[{"channel":"temperature.reported","value":1e400}]}',
        /^states\[0\]\.value: expected a boolean, number or string, got Infinity$/,
      ],
      [
        '/api/v1/devices/set',
        '{"device":"demo-001","values":{"enabled":"yes"}}',
        /^values\.enabled: expected a boolean/,
      ],
      [
        '/api/v1/devices/set',
        '{"device":"demo-001","values":{"name":" "}}',
        /^values\.name: expected a non-empty string/,
      ],
      [
        '/api/v1/properties/set',
        '{"device":"demo-001","values":{"Bad Name":1}}',
        /^values\.Bad Name: property names match/,
      ],
      [
        '/api/v1/properties/set',
        '{"device":"demo-001","values":{"ok-name":{"nested":1}}}',
        /^values\.ok-name: expected a boolean, number or string/,
      ],
      ['/api/v1/entities/relations/insert', `{"entity":"${demo.device1}"}`, /^parentEntity is required$/],
    ];
    for (const [url, body, detail] of bodies)
      assertProblem(await app.request('POST', url, body), detail, `${url} ${body.slice(0, 60)}`);
    assertProblem(await app.request('GET', '/api/v1/devices/list?i=-1'), /^i: expected a non-negative integer/, 'i');
    assertProblem(await app.request('GET', '/api/v1/entities/relations/get'), /^entity is required$/, 'entity');
  });

  it('keeps a request timeout, so a request that never completes is answered 408', async () => {
    await app.app.ready();
    assert.equal(app.app.server.requestTimeout, requestTimeoutMs);
    assert.ok(requestTimeoutMs > 0);
  });

  it('declares the shape-level refusals in the schema itself, not only in code', () => {
    const ajv = new Ajv({ strict: false, coerceTypes: 'array' });
    const read = routeSpec('GET', '/api/v1/states/read');
    assert.ok(read?.query);
    const query = ajv.compile({ type: 'object', properties: read.query });
    for (const bad of [
      { timeRangeStart: '1700000000000' },
      { timeRangeStart: '1h' },
      { windowPeriod: '1e400' },
      { timeRangeStart: ['-1h', '-2h'] },
    ])
      assert.equal(query(bad), false, JSON.stringify(bad));
    for (const good of [
      { timeRangeStart: '-1h30m' },
      { timeRangeStart: '2024-02-29T10:00:00Z' },
      { windowPeriod: '10s' },
    ])
      assert.equal(query(good), true, JSON.stringify(good));
    const body = new Ajv({ strict: false }).compile(routeSpec('POST', '/api/v1/states/write')?.body ?? {});
    assert.equal(body({ states: [{ channel: 'a.reported', value: 1, timestamp: '1h' }] }), false);
    assert.equal(body({ states: [{ channel: 'a.reported', value: 1, timestamp: '2024-02-29' }] }), true);
  });
});
