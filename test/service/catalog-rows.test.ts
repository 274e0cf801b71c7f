/**
 * The catalog's changes are rows (decisions 10): a property or device change
 * writes that row only, never the whole catalog; a database written by the
 * previous version (one JSON blob in table `catalog`) is migrated into rows when
 * the service opens it, and reads back the same.
 */
import { strict as assert } from 'node:assert';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import tmp from 'tmp';
import { demo, everyDeviceDefaults, startTestService } from './helpers.js';

type Obj = Record<string, unknown>;

describe('service catalog rows', () => {
  let dir: tmp.DirResult;
  beforeEach(() => {
    dir = tmp.dirSync({ unsafeCleanup: true });
  });
  afterEach(() => {
    dir.removeCallback();
  });

  /** Rows of each catalog table, read with a second connection (WAL readers see committed data). */
  function rows(dbPath: string): Record<string, unknown[]> {
    const db = new Database(dbPath, { readonly: true });
    try {
      const all = (table: string): unknown[] => db.prepare(`SELECT * FROM ${table}`).raw().all();
      return {
        devices: all('devices'),
        products: all('products'),
        properties: all('properties'),
        relations: all('relations'),
      };
    } finally {
      db.close();
    }
  }

  it('writes the changed property, device and relation rows only', async () => {
    const dbPath = join(dir.name, 'dds.db');
    const t = await startTestService({ dbPath });
    try {
      assert.deepEqual(rows(dbPath), { devices: [], products: [], properties: [], relations: [] });
      await t.post('/api/v1/properties/set', { device: 'demo-001', values: { 'sample-rate': 7, 'led-enabled': true } });
      // led-enabled did not change: only sample-rate's row is written.
      assert.deepEqual(rows(dbPath).properties, [[demo.device1, 'sample-rate', 'n', 7]]);
      await t.post('/api/v1/devices/set', { device: 'demo-002', values: { name: 'Two' } });
      assert.deepEqual(rows(dbPath).devices, [[demo.device2, 'Two', 'demo-002', 1]]);
      await t.post('/api/v1/entities/relations/delete', { entity: demo.device1, parentEntity: demo.location });
      assert.deepEqual(rows(dbPath).relations, [[demo.device1, demo.location, 0]]);
      assert.deepEqual(rows(dbPath).products, []);
    } finally {
      await t.service.close();
    }
    const again = await startTestService({ dbPath });
    try {
      const props = (await again.get('/api/v1/properties/get?device=demo-001')).json as Obj;
      assert.deepEqual(props, {
        ...everyDeviceDefaults,
        'report-mode': 'normal',
        'sample-rate': 7,
        'led-enabled': true,
      });
      const under = (await again.get(`/api/v1/devices/list?entity=${demo.location}`)).json as unknown[];
      assert.equal(under.length, 0, 'the deleted relation stays deleted');
    } finally {
      await again.service.close();
    }
  });

  it("migrates a database written by the previous version's one catalog blob", async () => {
    const dbPath = join(dir.name, 'old.db');
    // The previous version's format: states/measurements tables and `catalog` (id 1, the whole snapshot).
    const old = new Database(dbPath);
    old.pragma('journal_mode = WAL');
    old.exec('CREATE TABLE catalog (id INTEGER PRIMARY KEY CHECK (id = 1), json TEXT NOT NULL)');
    const snapshot = {
      devices: {
        [demo.device1]: {
          name: 'Renamed one',
          key: 'demo-001',
          enabled: true,
          properties: { 'report-mode': 'quiet', 'sample-rate': 4, 'led-enabled': false, 'admin-made': 'kept' },
        },
        [demo.device2]: {
          name: 'Demo board 2',
          key: 'demo-002',
          enabled: false,
          properties: { 'report-mode': 'normal', 'sample-rate': 1, 'led-enabled': false },
        },
      },
      products: { [demo.product]: { name: 'Old product name', enabled: true } },
      // The fixture's device1 -> location relation is absent: it had been deleted; device2 moved there.
      relations: [
        [demo.device1, demo.product],
        [demo.device2, demo.product],
        [demo.device2, demo.location],
      ],
    };
    old.prepare('INSERT INTO catalog (id, json) VALUES (1, ?)').run(JSON.stringify(snapshot));
    old.close();

    const t = await startTestService({ dbPath });
    try {
      const p1 = (await t.get('/api/v1/properties/get?device=demo-001')).json as Obj;
      assert.deepEqual(p1, {
        ...everyDeviceDefaults,
        'report-mode': 'quiet',
        'sample-rate': 4,
        'led-enabled': false,
        'admin-made': 'kept',
      });
      const d1 = (await t.get('/api/v1/devices/get?device=demo-001')).json as Obj;
      assert.equal(d1['name'], 'Renamed one');
      const d2 = (await t.get('/api/v1/devices/get?device=demo-002')).json as Obj;
      assert.equal(d2['enabled'], false);
      const product = (await t.get(`/api/v1/products/get?product=${demo.product}`)).json as Obj;
      assert.equal(product['name'], 'Old product name');
      const under = (await t.get(`/api/v1/devices/list?entity=${demo.location}`)).json as Obj[];
      assert.deepEqual(
        under.map((d) => d['key']),
        ['demo-002'],
      );
      // The device may set the property the admin had made before the migration.
      const r = await t.post(
        '/api/v1/properties/set',
        { device: 'demo-001', values: { 'admin-made': 'x' } },
        demo.token1,
      );
      assert.equal(r.status, 200, r.text);
    } finally {
      await t.service.close();
    }
    const db = new Database(dbPath, { readonly: true });
    try {
      const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all();
      assert.equal(tables.includes('catalog'), false, 'the blob table is gone');
    } finally {
      db.close();
    }
  });
});
