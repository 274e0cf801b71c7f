/**
 * Measurements (spec 4.7), properties (spec 4.4) and channels (spec 4.5)
 * through real HTTP.
 */
import { strict as assert } from 'node:assert';
import { demo, seconds, useTestService, everyDeviceDefaults } from './helpers.js';

type Obj = Record<string, unknown>;
const P = demo.product;

describe('service measurements, properties and channels', () => {
  const t = useTestService();

  it('writes Location objects and numbers, reads them raw, windowed and last', async () => {
    const loc = { lat: 52.52, lon: 13.405, alt: 34, sats: 9 };
    const w = await t.post('/api/v1/measurements/write', {
      device: 'demo-001',
      measurements: [
        { metric: 'gps', value: loc, timestamp: seconds(t.clock, -20_000) },
        { metric: 'temperature', value: 20, timestamp: seconds(t.clock, -20_000) },
        { metric: 'temperature', value: 22, timestamp: new Date(t.clock.nowMs - 10_000).toISOString() },
      ],
    });
    assert.equal(w.status, 200, w.text);
    const raw = (await t.get('/api/v1/measurements/read?devices=demo-001&metrics=gps')).json as Obj[];
    assert.deepEqual(raw, [
      {
        metric: `${P}:gps`,
        value: loc,
        aggregated: 'last',
        entity: demo.device1,
        timestamp: seconds(t.clock, -20_000),
      },
    ]);
    const mean = (await t.get('/api/v1/measurements/read?devices=demo-001&metrics=temperature&windowPeriod=1m'))
      .json as Obj[];
    assert.deepEqual(
      mean.map((r) => [r['value'], r['aggregated'], r['timestamp']]),
      [[21, 'mean', seconds(t.clock)]],
    );
    const last = (await t.get('/api/v1/measurements/read/last?device=demo-001')).json as Obj[];
    assert.deepEqual(
      last.map((r) => [r['metric'], r['value']]),
      [
        [`${P}:gps`, loc],
        [`${P}:temperature`, 22],
      ],
    );
  });

  it('accepts any channel key as a metric and refuses unknown metrics and bad values', async () => {
    const post = (measurements: Obj[]): Promise<number> =>
      t.post('/api/v1/measurements/write', { device: 'demo-001', measurements }).then((r) => r.status);
    assert.equal(await post([{ metric: 'battery', value: 3.7 }]), 200);
    assert.equal(await post([{ metric: 'ghost', value: 1 }]), 400);
    assert.equal(await post([{ metric: 'battery', value: null }]), 400);
    assert.equal(await post([{ metric: 'battery', value: [1, 2] }]), 400);
    assert.equal(await post([{ value: 1 }]), 400);
    assert.equal((await t.post('/api/v1/measurements/write', { device: 'demo-001', measurements: {} })).status, 400);
    assert.equal((await t.get('/api/v1/measurements/read?metrics=ghost')).status, 400);
  });

  it('gets properties by GET and POST, with device or entity', async () => {
    const expected = { ...everyDeviceDefaults, 'report-mode': 'normal', 'sample-rate': 1, 'led-enabled': true };
    assert.deepEqual((await t.get('/api/v1/properties/get?device=demo-001')).json, expected);
    assert.deepEqual((await t.get(`/api/v1/properties/get?entity=${demo.device1}`, demo.token1)).json, expected);
    assert.deepEqual((await t.post('/api/v1/properties/get', { device: 'demo-001' })).json, expected);
    assert.equal((await t.post('/api/v1/properties/get', { device: 'demo-001', entity: demo.device1 })).status, 400);
    assert.equal((await t.get('/api/v1/properties/get?device=demo-001', demo.token2)).status, 403);
  });

  it('sets only the given properties and validates names and values', async () => {
    const set = (values: unknown): Promise<number> =>
      t.post('/api/v1/properties/set', { device: 'demo-002', values }).then((r) => r.status);
    assert.equal(await set({ 'sample-rate': 10, new_one: 'x' }), 200);
    assert.deepEqual((await t.get('/api/v1/properties/get?device=demo-002')).json, {
      ...everyDeviceDefaults,
      'report-mode': 'normal',
      'sample-rate': 10,
      'led-enabled': false,
      new_one: 'x',
    });
    assert.equal(await set({ Upper: 1 }), 400);
    assert.equal(await set({ a: 1 }), 400); // at least two characters
    assert.equal(await set({ 'ok-name': { nested: 1 } }), 400);
    assert.equal(await set('values'), 400);
  });

  it('lists buses and channels by device key, device uid or product uid', async () => {
    const byKey = (await t.get('/api/v1/channels/list?device=demo-001', demo.token1)).json as {
      buses: Obj[];
      channels: Obj[];
    };
    assert.equal(byKey.buses.length, 2);
    assert.equal(byKey.channels.length, 15);
    assert.equal(byKey.channels[0]?.['key'], 'temperature');
    assert.deepEqual((await t.get(`/api/v1/channels/list?entity=${demo.device1}`)).json, byKey);
    assert.deepEqual((await t.get(`/api/v1/channels/list?entity=${P}`)).json, byKey);
    assert.equal((await t.get(`/api/v1/channels/list?entity=${demo.location}`)).status, 400);
    assert.equal((await t.get('/api/v1/channels/list?device=demo-002', demo.token1)).status, 403);
  });
});
