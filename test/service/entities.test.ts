/**
 * Devices, products and entity relations (spec 4.1-4.3, decisions 6):
 * displayName and link, lists with entity, q, i, l ordered by name then uid,
 * partial sets, and the entity tree.
 */
import { strict as assert } from 'node:assert';
import { demo, demoFixture, useTestService } from './helpers.js';

type Obj = Record<string, unknown>;

describe('service devices, products and relations', () => {
  const t = useTestService(() => {
    const fixture = demoFixture();
    fixture.devices.push({
      uid: 'a0d5e6f7-4152-4d8e-9f90-000000000e03',
      key: 'aaa-003',
      name: 'Demo board 1',
      enabled: false,
      product: demo.product,
      properties: {},
    });
    return { fixture };
  });

  it('gets a device by key, uid or entity with displayName and link', async () => {
    const byKey = await t.get('/api/v1/devices/get?device=demo-001');
    const expected = {
      uid: demo.device1,
      enabled: true,
      name: 'Demo board 1',
      key: 'demo-001',
      displayName: 'Demo board 1 (demo-001)',
      link: `${t.service.url}/admin/devices/${demo.device1}`,
    };
    assert.deepEqual(byKey.json, expected);
    assert.deepEqual((await t.get(`/api/v1/devices/get?device=${demo.device1}`)).json, expected);
    assert.deepEqual((await t.get(`/api/v1/devices/get?entity=${demo.device1}`)).json, expected);
    assert.equal((await t.get(`/api/v1/devices/get?entity=${demo.product}`)).status, 400);
  });

  it('lists devices ordered by name then uid, with q, entity, i and l', async () => {
    const keys = async (q: string): Promise<string[]> =>
      ((await t.get(`/api/v1/devices/list${q}`)).json as Obj[]).map((d) => d['key'] as string);
    assert.deepEqual(await keys(''), ['demo-001', 'aaa-003', 'demo-002']);
    assert.deepEqual(await keys('?i=1&l=1'), ['aaa-003']);
    assert.deepEqual(await keys('?l=0'), []);
    assert.deepEqual(await keys('?q=BOARD 2'), ['demo-002']);
    assert.deepEqual(await keys('?q=aaa'), ['aaa-003']);
    assert.deepEqual(await keys('?q=warehouse'), ['demo-001']); // a parent's name
    assert.deepEqual(await keys(`?entity=${demo.location}`), ['demo-001']);
    assert.deepEqual(await keys(`?entity=${demo.product}&q=demo-00`), ['demo-001', 'demo-002']);
  });

  it('sets only the given device details that differ', async () => {
    const r = await t.post('/api/v1/devices/set', { device: 'demo-002', values: { name: 'Renamed' } });
    assert.equal(r.status, 200);
    const d = (await t.get('/api/v1/devices/get?device=demo-002')).json as Obj;
    assert.equal(d['name'], 'Renamed');
    assert.equal(d['enabled'], true);
    assert.equal(d['displayName'], 'Renamed (demo-002)');
    await t.post('/api/v1/devices/set', { entity: demo.device2, values: { key: 'demo-two', enabled: false } });
    const d2 = (await t.get('/api/v1/devices/get?device=demo-two')).json as Obj;
    assert.equal(d2['enabled'], false);
    assert.equal(
      (await t.post('/api/v1/devices/set', { device: 'demo-two', values: { key: 'demo-001' } })).status,
      400,
    );
    assert.equal((await t.post('/api/v1/devices/set', { device: 'demo-two', values: { enabled: 'yes' } })).status, 400);
    assert.equal((await t.post('/api/v1/devices/set', { device: 'demo-two' })).status, 400);
  });

  it('gets, lists and sets products (identifier as product or entity)', async () => {
    const p = (await t.get(`/api/v1/products/get?product=${demo.product}`)).json as Obj;
    assert.deepEqual(p, {
      uid: demo.product,
      enabled: true,
      name: 'Demo sensor board',
      displayName: 'Demo sensor board',
      link: `${t.service.url}/admin/products/${demo.product}`,
    });
    assert.equal((await t.get('/api/v1/products/list')).json instanceof Array, true);
    assert.deepEqual(((await t.get('/api/v1/products/list?q=sensor')).json as Obj[]).length, 1);
    assert.deepEqual(((await t.get('/api/v1/products/list?q=nothing')).json as Obj[]).length, 0);
    await t.post('/api/v1/products/set', { product: demo.product, values: { name: 'Board' } });
    await t.post('/api/v1/products/set', { entity: demo.product, values: { enabled: false } });
    const p2 = (await t.get(`/api/v1/products/get?product=${demo.product}`)).json as Obj;
    assert.equal(p2['name'], 'Board');
    assert.equal(p2['enabled'], false);
    assert.equal((await t.post('/api/v1/products/set', { product: demo.device1, values: {} })).status, 400);
    assert.equal((await t.get('/api/v1/products/get?product=ghost')).status, 404);
  });

  it('reads relations with entity summaries', async () => {
    const r = (await t.get(`/api/v1/entities/relations/get?entity=${demo.device1}`)).json as {
      parents: Obj[];
      children: Obj[];
    };
    assert.deepEqual(
      r.parents.map((p) => p['uid']),
      [demo.product, demo.location],
    );
    assert.deepEqual(r.parents[1], {
      uid: demo.location,
      enabled: true,
      name: 'Warehouse',
      key: 'warehouse',
      displayName: 'Warehouse (warehouse)',
      link: `${t.service.url}/admin/locations/${demo.location}`,
    });
    const loc = (await t.get(`/api/v1/entities/relations/get?entity=${demo.location}`)).json as { children: Obj[] };
    assert.deepEqual(
      loc.children.map((c) => c['key']),
      ['demo-001'],
    );
  });

  it('inserts, moves and deletes relations, refusing cycles and unknown ones', async () => {
    const rel = `/api/v1/entities/relations`;
    assert.equal((await t.post(`${rel}/insert`, { entity: demo.device2, parentEntity: demo.location })).status, 200);
    const keys = async (): Promise<string[]> =>
      ((await t.get(`/api/v1/devices/list?entity=${demo.location}`)).json as Obj[]).map((d) => d['key'] as string);
    assert.deepEqual(await keys(), ['demo-001', 'demo-002']);
    assert.equal((await t.post(`${rel}/delete`, { entity: demo.device2, parentEntity: demo.location })).status, 200);
    assert.deepEqual(await keys(), ['demo-001']);
    assert.equal((await t.post(`${rel}/delete`, { entity: demo.device2, parentEntity: demo.location })).status, 404);
    assert.equal((await t.post(`${rel}/delete`, { entity: demo.device1, parentEntity: demo.product })).status, 400);
    assert.equal((await t.post(`${rel}/insert`, { entity: demo.location, parentEntity: demo.device1 })).status, 400);
    assert.equal((await t.post(`${rel}/insert`, { entity: demo.location, parentEntity: demo.location })).status, 400);
    assert.equal((await t.post(`${rel}/insert`, { entity: demo.location, parentEntity: 'ghost' })).status, 404);
    const moved = await t.post(`${rel}/update`, {
      entity: demo.device1,
      fromParentEntity: demo.location,
      toParentEntity: demo.product,
    });
    assert.equal(moved.status, 200);
    assert.deepEqual(await keys(), []);
    const back = { entity: demo.device1, fromParentEntity: demo.product, toParentEntity: demo.location };
    assert.equal((await t.post(`${rel}/update`, back)).status, 400); // a device stays below its product
    assert.equal(
      (await t.post(`${rel}/insert`, { entity: demo.device1, parentEntity: demo.location }, demo.token1)).status,
      403,
    );
  });
});
