/**
 * SQLite storage (better-sqlite3, WAL): the two series tables (sqlite-series.ts),
 * the catalog's rows (sqlite-catalog.ts), the health probe, and the log's
 * checkpoints in a thread of their own (checkpointer.ts), told after every
 * committed write.
 */
import Database from 'better-sqlite3';
import { defaultCheckpointerOptions, startCheckpointer } from './checkpointer.js';
import { openSqliteCatalog } from './sqlite-catalog.js';
import { SqliteSeries } from './sqlite-series.js';
import type { CatalogStore, Storage } from './storage.js';

/** Thrown inside the probe's transaction to roll it back. */
const rollback = new Error('probe rollback');

/** The catalog store with `committed` called after each of its writes. */
function afterWrites(store: CatalogStore, committed: () => void): CatalogStore {
  return {
    load: () => store.load(),
    saveDevice: (uid, row) => (store.saveDevice(uid, row), committed()),
    saveProduct: (uid, row) => (store.saveProduct(uid, row), committed()),
    saveProperties: (device, values) => (store.saveProperties(device, values), committed()),
    saveRelation: (entity, parent, present) => (store.saveRelation(entity, parent, present), committed()),
  };
}

/**
 * Opens (or creates) the database at `path` (`:memory:` for tests). A file's
 * log is checkpointed by a thread of its own (checkpointer.ts); `logError`
 * hears if that thread fails.
 */
export function openSqliteStorage(path: string, logError: (line: string) => void = () => undefined): Storage {
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  const catalogRows = openSqliteCatalog(db);
  const checkpointer = startCheckpointer(db, path, { ...defaultCheckpointerOptions, onError: logError });
  const committed = (): void => checkpointer.nudge();
  const catalog = afterWrites(catalogRows, committed);
  // The probe writes a row and rolls it back: it fails as a real write would (read-only file, full disk).
  const probeWrite = db.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES ('probe', '1')");
  const probe = db.transaction(() => {
    probeWrite.run();
    throw rollback;
  });
  const pages = db.prepare('PRAGMA page_count').pluck();
  const pageSize = db.pragma('page_size', { simple: true }) as number;
  return {
    states: new SqliteSeries(db, 'states', committed),
    measurements: new SqliteSeries(db, 'measurements', committed),
    catalog,
    whenWritable: () => checkpointer.whenWritable(),
    probe() {
      // Not the writers' 5 s wait for a lock: a health check answers at once (SQLITE_BUSY is unhealthy).
      const wait = db.pragma('busy_timeout', { simple: true }) as number;
      db.pragma('busy_timeout = 0');
      try {
        probe();
      } catch (e) {
        if (e !== rollback) throw e;
      } finally {
        db.pragma(`busy_timeout = ${wait}`);
      }
    },
    sizeBytes: () => (pages.get() as number) * pageSize,
    close: async () => {
      const ended = checkpointer.close();
      db.close();
      await ended;
    },
  };
}
