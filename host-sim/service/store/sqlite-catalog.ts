/**
 * The catalog's changes in SQLite, one row each (decisions 10): `devices`,
 * `products`, `properties` (device, name) and `relations` (entity, parent,
 * present), so a change writes its own row. A database written by the previous
 * version kept the whole catalog as one JSON blob (table `catalog`); opening it
 * migrates the blob into rows in one transaction and drops the table.
 */
import type Database from 'better-sqlite3';
import type { CatalogRows, CatalogStore, DeviceRow, ProductRow } from './storage.js';

type Scalar = boolean | number | string;

/** The blob of the previous version (catalog.ts `CatalogSnapshot` before rows). */
interface LegacySnapshot {
  devices?: Record<string, { name: string; key: string; enabled: boolean; properties?: Record<string, Scalar> }>;
  products?: Record<string, { name: string; enabled: boolean }>;
  relations?: [string, string][];
}

const tagOf = (v: Scalar): string => (typeof v === 'number' ? 'n' : typeof v === 'string' ? 's' : 'b');
const columnOf = (v: Scalar): number | string => (typeof v === 'boolean' ? (v ? 1 : 0) : v);
const valueOf = (tag: string, v: number | string): Scalar =>
  tag === 'b' ? v === 1 : tag === 'n' ? Number(v) : String(v);

export function openSqliteCatalog(db: Database.Database): CatalogStore {
  db.exec(`
    CREATE TABLE IF NOT EXISTS devices (uid TEXT PRIMARY KEY, name TEXT NOT NULL, key TEXT NOT NULL, enabled INTEGER NOT NULL) WITHOUT ROWID;
    CREATE TABLE IF NOT EXISTS products (uid TEXT PRIMARY KEY, name TEXT NOT NULL, enabled INTEGER NOT NULL) WITHOUT ROWID;
    CREATE TABLE IF NOT EXISTS properties (device TEXT NOT NULL, name TEXT NOT NULL, tag TEXT NOT NULL, v,
      PRIMARY KEY (device, name)) WITHOUT ROWID;
    CREATE TABLE IF NOT EXISTS relations (entity TEXT NOT NULL, parent TEXT NOT NULL, present INTEGER NOT NULL,
      PRIMARY KEY (entity, parent)) WITHOUT ROWID;
    CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;`);
  const putDevice = db.prepare('INSERT OR REPLACE INTO devices (uid, name, key, enabled) VALUES (?, ?, ?, ?)');
  const putProduct = db.prepare('INSERT OR REPLACE INTO products (uid, name, enabled) VALUES (?, ?, ?)');
  const putProperty = db.prepare('INSERT OR REPLACE INTO properties (device, name, tag, v) VALUES (?, ?, ?, ?)');
  const putRelation = db.prepare('INSERT OR REPLACE INTO relations (entity, parent, present) VALUES (?, ?, ?)');
  const saveDevice = (uid: string, r: DeviceRow): void => void putDevice.run(uid, r.name, r.key, r.enabled ? 1 : 0);
  const saveProduct = (uid: string, r: ProductRow): void => void putProduct.run(uid, r.name, r.enabled ? 1 : 0);
  const saveProperties = db.transaction((device: string, values: Readonly<Record<string, Scalar>>) => {
    for (const [name, v] of Object.entries(values)) putProperty.run(device, name, tagOf(v), columnOf(v));
  });
  migrateLegacy(db, { saveDevice, saveProduct, saveProperties, putRelation });
  return {
    load: () => load(db),
    saveDevice,
    saveProduct,
    saveProperties: (device, values) => void saveProperties(device, values),
    saveRelation: (entity, parent, present) => void putRelation.run(entity, parent, present ? 1 : 0),
  };
}

function load(db: Database.Database): CatalogRows {
  const rows: CatalogRows = {
    devices: new Map(),
    products: new Map(),
    properties: new Map(),
    relations: [],
    relationsComplete: db.prepare("SELECT value FROM meta WHERE key = 'relations'").pluck().get() === 'complete',
  };
  for (const [uid, name, key, enabled] of db.prepare('SELECT uid, name, key, enabled FROM devices').raw().all() as [
    string,
    string,
    string,
    number,
  ][])
    rows.devices.set(uid, { name, key, enabled: enabled === 1 });
  for (const [uid, name, enabled] of db.prepare('SELECT uid, name, enabled FROM products').raw().all() as [
    string,
    string,
    number,
  ][])
    rows.products.set(uid, { name, enabled: enabled === 1 });
  const props = db.prepare('SELECT device, name, tag, v FROM properties ORDER BY device, name').raw();
  for (const [device, name, tag, v] of props.all() as [string, string, string, number | string][]) {
    let own = rows.properties.get(device);
    if (own === undefined) rows.properties.set(device, (own = new Map()));
    own.set(name, valueOf(tag, v));
  }
  for (const [entity, parent, present] of db.prepare('SELECT entity, parent, present FROM relations').raw().all() as [
    string,
    string,
    number,
  ][])
    rows.relations.push({ entity, parent, present: present === 1 });
  return rows;
}

interface Writers {
  saveDevice(uid: string, r: DeviceRow): void;
  saveProduct(uid: string, r: ProductRow): void;
  saveProperties(device: string, values: Readonly<Record<string, Scalar>>): void;
  putRelation: Database.Statement;
}

/** Moves the previous version's blob (table `catalog`, one row) into rows, then drops the table. */
function migrateLegacy(db: Database.Database, w: Writers): void {
  const legacy = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'catalog'").get();
  if (legacy === undefined) return;
  db.transaction(() => {
    const json = db.prepare('SELECT json FROM catalog WHERE id = 1').pluck().get() as string | undefined;
    if (json !== undefined) {
      const s = JSON.parse(json) as LegacySnapshot;
      for (const [uid, d] of Object.entries(s.devices ?? {})) {
        w.saveDevice(uid, { name: d.name, key: d.key, enabled: d.enabled });
        w.saveProperties(uid, d.properties ?? {});
      }
      for (const [uid, p] of Object.entries(s.products ?? {})) w.saveProduct(uid, p);
      for (const [entity, parent] of s.relations ?? []) w.putRelation.run(entity, parent, 1);
      db.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES ('relations', 'complete')").run();
    }
    db.exec('DROP TABLE catalog');
  })();
}
