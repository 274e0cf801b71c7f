/**
 * One series table of the SQLite storage (states or measurements): history
 * keyed by (device, name, ts), a write one statement per point in one
 * transaction. The newest point of every series (what `read/last` and the
 * stored names need) is kept in memory, rebuilt from the history when the
 * database opens (one grouped pass over the key) and updated after each
 * committed write; it holds one point per series, so it is bounded by the
 * catalog. Values keep their JSON type through a one-letter tag: n number,
 * s string, b boolean, j object, e error.
 */
import type Database from 'better-sqlite3';
import type { Point, Series, StoredValue, WindowStats } from './storage.js';

type Row = [name: string, ts: number, tag: string, v: number | string];

interface Newest {
  byName: Map<string, Point>;
  /** The names of `byName` sorted; undefined until asked for after a new name. */
  sorted: string[] | undefined;
}

/** The one-letter type tag of a point's stored column `v`. */
function tagOf(p: Point): string {
  if (p.error !== undefined) return 'e';
  const v = p.value;
  return typeof v === 'number' ? 'n' : typeof v === 'string' ? 's' : typeof v === 'boolean' ? 'b' : 'j';
}

/** The stored column `v` for `tag` (see `tagOf`). */
function columnOf(p: Point, tag: string): number | string {
  if (tag === 'e') return p.error as number;
  const v = p.value;
  if (tag === 'b') return v === true ? 1 : 0;
  return tag === 'j' ? JSON.stringify(v) : (v as number | string);
}

function decode(device: string, row: Row): Point {
  const [name, tsMs, tag, v] = row;
  if (tag === 'e') return { device, name, tsMs, value: undefined, error: Number(v) };
  let value: StoredValue;
  if (tag === 'b') value = v === 1;
  else if (tag === 'j') value = JSON.parse(String(v)) as StoredValue;
  else value = v;
  return { device, name, tsMs, value, error: undefined };
}

export class SqliteSeries implements Series {
  private readonly insert: Database.Statement;
  private readonly selectRange: Database.Statement;
  /** Device -> its series' newest points, and their names sorted (rebuilt only when a name appears). */
  private readonly newestByDevice = new Map<string, Newest>();
  private readonly selectNewest: Database.Statement;
  private readonly selectWindows: Database.Statement;
  private readonly selectWindow: Database.Statement;
  private readonly selectAt: Database.Statement;
  private readonly writeAll: (points: readonly Point[]) => void;

  constructor(
    db: Database.Database,
    table: string,
    private readonly committed: () => void,
  ) {
    db.exec(`CREATE TABLE IF NOT EXISTS ${table} (device TEXT NOT NULL, name TEXT NOT NULL, ts INTEGER NOT NULL,
               tag TEXT NOT NULL, v, PRIMARY KEY (device, name, ts)) WITHOUT ROWID;`);
    this.insert = db.prepare(`INSERT OR REPLACE INTO ${table} (device, name, ts, tag, v) VALUES (?, ?, ?, ?, ?)`);
    const cols = 'name, ts, tag, v';
    this.selectRange = db
      .prepare(`SELECT ${cols} FROM ${table} WHERE device = ? AND name = ? AND ts >= ? AND ts < ? ORDER BY ts LIMIT ?`)
      .raw();
    this.selectNewest = db
      .prepare(`SELECT ${cols} FROM ${table} WHERE device = ? AND name = ? ORDER BY ts DESC LIMIT ?`)
      .raw();
    // SQLite takes the bare columns of a MAX() aggregate from the row holding the maximum.
    const newestRows = db
      .prepare(`SELECT device, name, MAX(ts), tag, v FROM ${table} GROUP BY device, name`)
      .raw()
      .all() as [string, ...Row][];
    for (const [device, ...row] of newestRows) this.remember(decode(device, row));
    // Integer division floors for ts >= 0; the newest row of each window is joined back for `last`.
    this.selectWindows = db
      .prepare(
        `SELECT g.win, g.n, g.nn, g.mean, g.mn, g.mx, s.name, s.ts, s.tag, s.v FROM (
           SELECT CAST(ts / :w AS INTEGER) AS win, COUNT(*) AS n, SUM(tag = 'n') AS nn, AVG(v) AS mean, MIN(v) AS mn, MAX(v) AS mx,
                  MAX(ts) AS lastTs
           FROM ${table} WHERE device = :device AND name = :name AND ts >= :start AND ts < :stop GROUP BY win
           ORDER BY win LIMIT :limit
         ) AS g JOIN ${table} AS s ON s.device = :device AND s.name = :name AND s.ts = g.lastTs ORDER BY g.win`,
      )
      .raw();
    // One window at a time: an aggregate over a key range, with no sort (see `windowStats`).
    this.selectWindow = db
      .prepare(
        `SELECT COUNT(*), SUM(tag = 'n'), AVG(v), MIN(v), MAX(v), MAX(ts) FROM ${table}
         WHERE device = ? AND name = ? AND ts >= ? AND ts < ?`,
      )
      .raw();
    this.selectAt = db.prepare(`SELECT ${cols} FROM ${table} WHERE device = ? AND name = ? AND ts = ?`).raw();
    this.writeAll = db.transaction((points: readonly Point[]) => {
      for (const p of points) {
        const tag = tagOf(p);
        this.insert.run(p.device, p.name, p.tsMs, tag, columnOf(p, tag));
      }
    });
  }

  write(points: readonly Point[]): void {
    if (points.length === 0) return;
    this.writeAll(points);
    this.committed();
    for (const p of points) this.remember(p);
  }

  /** Keeps `p` as its series' newest point unless a newer one is known (same rule as the stored order). */
  private remember(p: Point): void {
    let newest = this.newestByDevice.get(p.device);
    if (newest === undefined) this.newestByDevice.set(p.device, (newest = { byName: new Map(), sorted: undefined }));
    const known = newest.byName.get(p.name);
    if (known === undefined) newest.sorted = undefined;
    if (known === undefined || p.tsMs >= known.tsMs) newest.byName.set(p.name, p);
  }

  private sortedNames(newest: Newest): readonly string[] {
    return (newest.sorted ??= [...newest.byName.keys()].sort());
  }

  range(device: string, name: string, startMs: number, stopMs: number, limit: number): Point[] {
    return (this.selectRange.all(device, name, startMs, stopMs, limit) as Row[]).map((r) => decode(device, r));
  }

  latest(device: string, names: readonly string[] | null, startMs: number): Point[] {
    const newest = this.newestByDevice.get(device);
    if (newest === undefined) return [];
    const out: Point[] = [];
    for (const name of names === null ? this.sortedNames(newest) : [...new Set(names)].sort()) {
      const p = newest.byName.get(name);
      if (p !== undefined && p.tsMs >= startMs) out.push(p);
    }
    return out;
  }

  newest(device: string, name: string, count: number): Point[] {
    return (this.selectNewest.all(device, name, count) as Row[]).map((r) => decode(device, r));
  }

  names(device: string): string[] {
    const newest = this.newestByDevice.get(device);
    return newest === undefined ? [] : [...this.sortedNames(newest)];
  }

  windowStats(
    device: string,
    name: string,
    startMs: number,
    stopMs: number,
    windowMs: number,
    limit: number,
  ): WindowStats[] {
    const first = Math.floor(startMs / windowMs);
    const end = Math.ceil(stopMs / windowMs);
    if (Number.isInteger(windowMs) && end - first <= maxWindowsOneByOne) {
      return this.windowsOneByOne(device, name, startMs, stopMs, windowMs, limit, first, end);
    }
    const rows = this.selectWindows.all({ w: windowMs, device, name, start: startMs, stop: stopMs, limit }) as [
      number,
      number,
      number,
      number,
      number,
      number,
      ...Row,
    ][];
    return rows.map(([index, count, numeric, mean, min, max, ...last]) => ({
      index,
      count,
      numeric,
      mean,
      min,
      max,
      last: decode(device, last),
    }));
  }

  /**
   * The same windows as the GROUP BY query, one key-range aggregate per window:
   * GROUP BY over an expression of ts sorts every point (SQLite cannot know the
   * windows follow the key order), which costs more than a few hundred range
   * seeks. Empty windows cost one seek each.
   */
  private windowsOneByOne(
    device: string,
    name: string,
    startMs: number,
    stopMs: number,
    windowMs: number,
    limit: number,
    first: number,
    end: number,
  ): WindowStats[] {
    const out: WindowStats[] = [];
    for (let index = first; index < end && out.length < limit; index++) {
      const from = Math.max(index * windowMs, startMs);
      const to = Math.min((index + 1) * windowMs, stopMs);
      const row = this.selectWindow.get(device, name, from, to) as [number, number, number, number, number, number];
      const [count, numeric, mean, min, max, lastTs] = row;
      if (count === 0) continue;
      const last = this.selectAt.get(device, name, lastTs) as Row;
      out.push({ index, count, numeric, mean, min, max, last: decode(device, last) });
    }
    return out;
  }
}

/** Windows of a range read one by one at most (beyond, one GROUP BY query); see `windowsOneByOne`. */
const maxWindowsOneByOne = 200;
