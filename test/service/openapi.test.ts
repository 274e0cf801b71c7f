/**
 * The OpenAPI 3.1 document (host-sim/service/openapi.yaml) describes the API as
 * implemented: every route is documented, and real responses of every
 * endpoint, successes and problems, validate against the documented schemas.
 */
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { parse } from 'yaml';
import { Paths } from '../../src/wire.js';
import { demo, repoRoot, seconds, useTestService, type Reply } from './helpers.js';

type Obj = Record<string, unknown>;
const doc = parse(readFileSync(join(repoRoot, 'host-sim', 'service', 'openapi.yaml'), 'utf8')) as {
  openapi: string;
  paths: Record<string, Record<string, { responses: Record<string, Obj> }>>;
  components: Obj;
};

/** Rewrites local refs so that response schemas resolve against the registered document. */
function rebase(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(rebase);
  if (typeof value !== 'object' || value === null) return value;
  const out: Obj = {};
  for (const [k, v] of Object.entries(value))
    out[k] = k === '$ref' && typeof v === 'string' ? `openapi${v}` : rebase(v);
  return out;
}

const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true });
ajv.addSchema({ $id: 'openapi', components: rebase(doc.components) });

function resolveRef(o: Obj): Obj {
  const ref = o['$ref'];
  if (typeof ref !== 'string') return o;
  return ref
    .split('/')
    .slice(1)
    .reduce<Obj>((acc, part) => acc[part] as Obj, doc as unknown as Obj);
}

let checked = 0;
function check(path: string, method: 'get' | 'post', r: Reply): void {
  const op = doc.paths[path]?.[method];
  assert.ok(op, `${method.toUpperCase()} ${path} is not documented`);
  const response = resolveRef((op.responses[String(r.status)] ?? op.responses['default']) as Obj);
  const type = (r.headers.get('content-type') ?? '').split(';')[0] as string;
  const content = response['content'] as Record<string, { schema: Obj }> | undefined;
  const schema = content?.[type]?.schema;
  assert.ok(schema, `${method.toUpperCase()} ${path} ${r.status}: no schema for ${type}`);
  const validate = ajv.compile(rebase(schema) as Obj);
  assert.ok(
    validate(r.json),
    `${method.toUpperCase()} ${path} ${r.status}: ${ajv.errorsText(validate.errors)}\n${r.text}`,
  );
  checked++;
}

describe('service OpenAPI document', () => {
  const t = useTestService({}, { once: true });
  const get = async (path: string, query = '', token?: string): Promise<Reply> => {
    const r = await t.get(path + query, token);
    check(path, 'get', r);
    return r;
  };
  const post = async (path: string, body: unknown, token?: string): Promise<Reply> => {
    const r = await t.post(path, body, token);
    check(path.split('?')[0] as string, 'post', r);
    return r;
  };

  it('is OpenAPI 3.1 and documents every route the service serves', () => {
    assert.equal(doc.openapi, '3.1.0');
    const documented = Object.keys(doc.paths).sort();
    assert.deepEqual(documented, [...new Set(Object.values(Paths))].sort());
    // The validator is not vacuous: a wrong shape fails.
    assert.equal(ajv.validate('openapi#/components/schemas/Device', { uid: 1 }), false);
    assert.equal(
      ajv.validate('openapi#/components/schemas/StateRecord', { channel: 'p:a.reported', value: 1, error: -5 }),
      false,
    );
  });

  it('validates real responses of every endpoint against the document', async () => {
    const ts = seconds(t.clock, -30_000);
    await post('/api/v1/states/write', {
      device: 'demo-001',
      states: [
        { channel: 'temperature.reported', value: 20.5, timestamp: ts },
        { channel: 'relay.desired', value: true, timestamp: ts },
        { channel: 'gps.lat.reported', value: 52.5, timestamp: ts },
        { channel: 'pressure.reported', error: -19, timestamp: ts },
        { channel: 'note.reported', value: 'x', timestamp: ts },
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
    // Problems: 400, 401, 403, 404, 413.
    await get('/api/v1/states/read', '?timeRangeStart=soon');
    await get('/api/v1/devices/list', '', 'bad');
    await get('/api/v1/devices/list', '', demo.token1);
    await get('/api/v1/devices/get', '?device=ghost');
    await post('/api/v1/states/write', { pad: 'x'.repeat(1024 * 1024) });
    assert.ok(checked >= 30, `checked ${checked}`);
  });
});
