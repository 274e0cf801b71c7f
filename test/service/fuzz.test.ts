/**
 * Bad input never crashes the service nor corrupts stored data: random JSON
 * bodies for every POST endpoint and random query strings for every GET
 * endpoint (800 cases each) get 200 or a 4xx problem, never a 500, and the
 * data written before is intact. The hub's frames: fuzz-hub.test.ts.
 */
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { Paths } from '../../src/wire.js';
import { demo, seconds, useTestService } from './helpers.js';

const writePaths = [
  Paths.statesWrite,
  Paths.measurementsWrite,
  Paths.propertiesSet,
  Paths.propertiesGet,
  Paths.devicesSet,
  Paths.productsSet,
  Paths.relationsInsert,
  Paths.relationsDelete,
  Paths.relationsUpdate,
  Paths.hubNegotiate,
];
const readPaths = [
  Paths.statesRead,
  Paths.statesReadLast,
  Paths.measurementsRead,
  Paths.measurementsReadLast,
  Paths.devicesGet,
  Paths.devicesList,
  Paths.productsGet,
  Paths.productsList,
  Paths.relationsGet,
  Paths.propertiesGet,
  Paths.channelsList,
];
const names = [
  'device',
  'entity',
  'devices',
  'entities',
  'channels',
  'metrics',
  'timeRangeStart',
  'timeRangeStop',
  'windowPeriod',
  'i',
  'l',
  'q',
  'product',
];
const plausible = fc.constantFrom(
  'demo-001',
  demo.device1,
  demo.product,
  demo.location,
  '*.desired',
  'relay.reported',
  'gps.lat.reported',
  '-1h',
  '-1mo2d',
  '60',
  '1m',
  '2026-01-01T00:00:00Z',
  '',
  ',',
  '%',
  '-0s',
  '-99999999999y',
  '1e400',
  '2024-02-30',
  'temperature.reported,temperature.reported',
);
const entry = fc.record(
  {
    channel: fc.oneof(
      fc.constantFrom('relay.desired', 'relay.reported', 'gps.lat.reported', 'x.y.z', '*.desired'),
      fc.anything(),
    ),
    metric: fc.oneof(fc.constantFrom('gps', 'temperature', 'ghost'), fc.anything()),
    value: fc.anything(),
    error: fc.oneof(fc.integer({ min: -200, max: 200 }), fc.anything()),
    timestamp: fc.oneof(
      fc.double(),
      fc.string(),
      fc.constantFrom('2026-01-01T00:00:00Z', '2024-02-30', '1h', '-99999999999y', '1e400', 1.7e12, -1),
      fc.anything(),
    ),
  },
  { requiredKeys: [] },
);
const body = fc.oneof(
  fc.anything(),
  fc.record(
    {
      device: fc.oneof(plausible, fc.anything()),
      entity: fc.oneof(plausible, fc.anything()),
      states: fc.oneof(fc.array(entry, { maxLength: 4 }), fc.anything()),
      measurements: fc.oneof(fc.array(entry, { maxLength: 4 }), fc.anything()),
      values: fc.oneof(fc.dictionary(fc.string(), fc.anything()), fc.anything()),
      parentEntity: plausible,
      fromParentEntity: plausible,
      toParentEntity: plausible,
    },
    { requiredKeys: [] },
  ),
);

describe('service under random input', function () {
  // A few hundred requests each: bounded by runs, not by mocha's default 2 s on a shared machine.
  this.timeout(60_000);
  const t = useTestService({}, { once: true });
  before(async () => {
    await t.post(Paths.statesWrite, {
      device: 'demo-001',
      states: [{ channel: 'temperature.reported', value: 21, timestamp: seconds(t.clock, -60_000) }],
    });
  });

  it('answers random write bodies with 200 or a 4xx problem', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...writePaths), body, async (path, b) => {
        const r = await t.post(path, JSON.stringify(b) ?? 'null');
        assert.ok(r.status === 200 || (r.status >= 400 && r.status < 500), `${path} ${r.status} ${r.text}`);
        if (r.status !== 200) assert.equal((r.json as Record<string, unknown>)['status'], r.status);
      }),
      { numRuns: 800 },
    );
  });

  it('answers random query strings with 200 or a 4xx problem', async () => {
    const param = fc.tuple(fc.constantFrom(...names), fc.oneof(plausible, fc.string()));
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...readPaths), fc.array(param, { maxLength: 4 }), async (path, params) => {
        const q = new URLSearchParams(params).toString();
        const r = await t.get(`${path}?${q}`);
        assert.ok(r.status === 200 || (r.status >= 400 && r.status < 500), `${path}?${q} ${r.status} ${r.text}`);
      }),
      { numRuns: 800 },
    );
  });

  it('still holds the data written before', async () => {
    const r = await t.get(`/api/v1/states/read?devices=${demo.device1}&channels=temperature.reported`);
    const values = (r.json as Record<string, unknown>[]).map((x) => x['value']);
    assert.ok(values.includes(21), JSON.stringify(r.json));
  });
});
