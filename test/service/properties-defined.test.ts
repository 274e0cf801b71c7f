/**
 * Properties as the specification has them (decisions 10): a device's names
 * are the fixture's, every device's (property-definitions.ts) and an admin's;
 * a set naming another is 400 naming it and stores nothing; a string value is
 * at most `maxPropertyBytes` UTF-8 bytes (413 naming it); `null` is not a value;
 * an admin defines at most `maxPropertiesPerDevice` names. The attack run's
 * property flood is one of the cases.
 */
import { strict as assert } from 'node:assert';
import { defaultLimits } from '../../host-sim/service/limits.js';
import { checkPropertyValues, initialProperties } from '../../host-sim/service/property-definitions.js';
import { demo, everyDeviceDefaults, quietHub, useTestService } from './helpers.js';
import { RawHubClient } from './raw-hub-client.js';

type Obj = Record<string, unknown>;
const set = '/api/v1/properties/set';
// What demo-001 has: the properties every device has, then its fixture's.
const fixtureValues = { ...everyDeviceDefaults, 'report-mode': 'normal', 'sample-rate': 1, 'led-enabled': true };

describe('service properties defined per device', () => {
  const clients: RawHubClient[] = [];
  const t = useTestService(quietHub, { beforeClose: () => clients.splice(0).forEach((c) => c.ws.terminate()) });
  const props = async (): Promise<Obj> => (await t.get('/api/v1/properties/get?device=demo-001')).json as Obj;

  it('refuses a device token naming an undefined property with 400 naming it, and stores nothing', async () => {
    const r = await t.post(set, { device: 'demo-001', values: { 'sample-rate': 9, invented: 'x' } }, demo.token1);
    assert.equal(r.status, 400);
    assert.match((r.json as Obj)['detail'] as string, /values\.invented: no property "invented" is defined/);
    assert.deepEqual(await props(), fixtureValues, 'sample-rate not changed either');
    const ok = await t.post(set, { device: 'demo-001', values: { 'sample-rate': 9 } }, demo.token1);
    assert.equal(ok.status, 200, ok.text);
    assert.equal((await props())['sample-rate'], 9);
  });

  it('lets an admin define a property, which the device may then set', async () => {
    assert.equal((await t.post(set, { device: 'demo-001', values: { 'new-one': 'a' } })).status, 200);
    assert.equal((await t.post(set, { device: 'demo-001', values: { 'new-one': 'b' } }, demo.token1)).status, 200);
    assert.equal((await props())['new-one'], 'b');
    // Defined for that device only.
    const other = await t.post(set, { device: 'demo-002', values: { 'new-one': 'c' } }, demo.token2);
    assert.equal(other.status, 400);
  });

  it('bounds string values at maxPropertyBytes UTF-8 bytes: at the limit 200, one byte past 413 naming it', async () => {
    const max = defaultLimits.maxPropertyBytes;
    const atLimit = 'é'.repeat(max / 2); // 2 bytes each
    assert.equal(
      (await t.post(set, { device: 'demo-001', values: { 'report-mode': atLimit } }, demo.token1)).status,
      200,
    );
    const past = await t.post(set, { device: 'demo-001', values: { 'report-mode': `${atLimit}x` } }, demo.token1);
    assert.equal(past.status, 413);
    assert.match((past.json as Obj)['detail'] as string, /values\.report-mode: .*at most 4096 UTF-8 bytes/);
    assert.equal((await props())['report-mode'], atLimit);
  });

  it('refuses null and non-finite values naming the property', async () => {
    const r = await t.post(set, { device: 'demo-001', values: { 'sample-rate': null } });
    assert.equal(r.status, 400);
    assert.match((r.json as Obj)['detail'] as string, /sample-rate/);
    assert.equal((await props())['sample-rate'], 1);
  });

  it('lets an admin define up to maxPropertiesPerDevice names, and no more', async () => {
    const room = defaultLimits.maxPropertiesPerDevice - Object.keys(fixtureValues).length;
    const values = Object.fromEntries(Array.from({ length: room }, (_, i) => [`p${i}`, i]));
    assert.equal((await t.post(set, { device: 'demo-001', values })).status, 200);
    assert.equal(Object.keys(await props()).length, defaultLimits.maxPropertiesPerDevice);
    const past = await t.post(set, { device: 'demo-001', values: { 'one-more': 1 } });
    assert.equal(past.status, 400);
    assert.match((past.json as Obj)['detail'] as string, /values\.one-more: a device has at most 64 properties/);
  });

  it('refuses the attack run: 60 sets of new 800,000-character properties with a device token', async () => {
    const big = 'x'.repeat(800_000);
    for (let i = 0; i < 60; i++) {
      const r = await t.post(set, { device: 'demo-001', values: { [`pad${i}`]: big } }, demo.token1);
      assert.equal(r.status, 400, r.text);
    }
    const r = await t.get('/api/v1/properties/get?device=demo-001', demo.token1);
    assert.deepEqual(r.json, fixtureValues);
    assert.ok(r.text.length < 200, 'the answer stays small');
  });

  it('applies the same rules to SetProperties over the hub', async () => {
    const c = await RawHubClient.connect(t.service.url, demo.token1);
    clients.push(c);
    c.sendRecord({ type: 1, invocationId: '1', target: 'SetProperties', arguments: [{ values: { nope: 1 } }] });
    c.sendRecord({
      type: 1,
      invocationId: '2',
      target: 'SetProperties',
      arguments: [{ values: { 'report-mode': 'y'.repeat(defaultLimits.maxPropertyBytes + 1) } }],
    });
    await c.waitFor(() => c.ofType(3).length === 2);
    const [first, second] = c.ofType(3);
    assert.match(String(first?.['error']), /values\.nope: no property "nope" is defined/);
    assert.match(String(second?.['error']), /values\.report-mode: .*at most 4096 UTF-8 bytes/);
    assert.deepEqual(await props(), fixtureValues);
  });

  it('starts every device with the every-device definitions, a fixture value winning (data, not code)', () => {
    const every = [
      { name: 'fw-version', initial: '' },
      { name: 'report-mode', initial: 'fast' },
    ];
    assert.deepEqual(initialProperties({ 'report-mode': 'normal' }, every), {
      'fw-version': '',
      'report-mode': 'normal',
    });
    const limits = { maxPropertyBytes: 10, maxPropertiesPerDevice: 3 };
    assert.deepEqual(checkPropertyValues({ 'fw-version': '1.2' }, { 'fw-version': '' }, 'device', limits), {
      'fw-version': '1.2',
    });
  });
});
