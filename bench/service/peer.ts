/**
 * The fair peer of `bench:service`: raw better-sqlite3 as its authors intend it
 * (prepared statements, one transaction per batch, `.raw()` rows), in memory
 * like the service, on the service's schema: one history table per series
 * (states, measurements) keyed by (device, name, ts) WITHOUT ROWID, with the
 * same rows. It does the storage work of each case and nothing else: no HTTP,
 * no JSON, no validation, no check for non-numeric values in a window.
 */
import Database from 'better-sqlite3';

export type Table = 'states' | 'measurements';

/** One row as the service stores a number: tag `n`. */
export interface PeerRow {
  device: string;
  name: string;
  ts: number;
  value: number;
}

export class RawPeer {
  private readonly db = new Database(':memory:');
  private readonly insert: Record<Table, Database.Statement>;
  private readonly writeBatch: (table: Table, rows: readonly PeerRow[]) => void;
  private readonly windowQuery: Database.Statement;
  private readonly lastQuery: Database.Statement;

  constructor() {
    for (const table of ['states', 'measurements']) {
      this.db.exec(`CREATE TABLE ${table} (device TEXT NOT NULL, name TEXT NOT NULL, ts INTEGER NOT NULL,
                    tag TEXT NOT NULL, v, PRIMARY KEY (device, name, ts)) WITHOUT ROWID`);
    }
    const insertInto = (table: Table): Database.Statement =>
      this.db.prepare(`INSERT OR REPLACE INTO ${table} (device, name, ts, tag, v) VALUES (?, ?, ?, 'n', ?)`);
    this.insert = { states: insertInto('states'), measurements: insertInto('measurements') };
    this.writeBatch = this.db.transaction((table: Table, rows: readonly PeerRow[]) => {
      const insert = this.insert[table];
      for (const r of rows) insert.run(r.device, r.name, r.ts, r.value);
    });
    // The mean of each epoch-aligned window, stamped by its newest point.
    this.windowQuery = this.db
      .prepare(
        `SELECT CAST(ts / ? AS INTEGER) AS win, AVG(v), MAX(ts) FROM states
         WHERE device = ? AND name = ? AND ts >= ? AND ts < ? GROUP BY win`,
      )
      .raw();
    // The newest row of every `.reported` series of a device (SQLite takes the bare columns from the MAX row).
    this.lastQuery = this.db
      .prepare(`SELECT name, MAX(ts), tag, v FROM states WHERE device = ? AND name LIKE '%.reported' GROUP BY name`)
      .raw();
  }

  /** Stores one batch in one transaction. */
  write(table: Table, rows: readonly PeerRow[]): void {
    this.writeBatch(table, rows);
  }

  /** Rows answered: the windows of [startMs, stopMs). */
  windowed(device: string, name: string, startMs: number, stopMs: number, windowMs: number): number {
    return this.windowQuery.all(windowMs, device, name, startMs, stopMs).length;
  }

  /** Rows answered: the newest `.reported` row of each series of `device`. */
  last(device: string): number {
    return this.lastQuery.all(device).length;
  }

  close(): void {
    this.db.close();
  }
}
