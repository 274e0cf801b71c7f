/**
 * The storage port of the local service: two time series (states, measurements)
 * with the newest point of each series at hand, plus the catalog's changes as rows. The
 * SQLite implementation is `sqlite-storage.ts`; tests use it on `:memory:`.
 */

/** A stored value: what spec 2.6/2.7 allow (objects for measurements only). */
export type StoredValue = boolean | number | string | { readonly [k: string]: unknown };

/** One point of a series. Exactly one of `value` and `error` is set. */
export interface Point {
  /** Device Unique ID. */
  device: string;
  /** State channel name (`key.reported`, `key.lat.desired`, ...) or metric key. */
  name: string;
  /** Unix time in integer milliseconds. */
  tsMs: number;
  value: StoredValue | undefined;
  /** Negative POSIX error number (states only). */
  error: number | undefined;
}

export interface Series {
  /**
   * Stores the points in one transaction. A point with the same device, name and
   * timestamp as a stored one replaces it (a retried batch is idempotent).
   */
  write(points: readonly Point[]): void;
  /** Points of one series with startMs <= ts < stopMs, oldest first, at most `limit`. */
  range(device: string, name: string, startMs: number, stopMs: number, limit: number): Point[];
  /** The latest point of each named series (all series when `names` is null) with ts >= startMs. */
  latest(device: string, names: readonly string[] | null, startMs: number): Point[];
  /** The `count` newest points of one series, newest first. */
  newest(device: string, name: string, count: number): Point[];
  /** The names stored for a device, sorted. */
  names(device: string): string[];
  /**
   * Per-window statistics of one series over [startMs, stopMs) with windows of
   * `windowMs` aligned to the epoch, computed by the database (startMs >= 0);
   * the oldest `limit` non-empty windows.
   */
  windowStats(
    device: string,
    name: string,
    startMs: number,
    stopMs: number,
    windowMs: number,
    limit: number,
  ): WindowStats[];
}

/** One window of `Series.windowStats`; min/max/mean are meaningful only when `numeric === count`. */
export interface WindowStats {
  /** Window index: floor(ts / windowMs). */
  index: number;
  count: number;
  /** Points holding a number (not an error, string, boolean or object). */
  numeric: number;
  mean: number;
  min: number;
  max: number;
  /** The newest point of the window. */
  last: Point;
}

/** The stored details of a device (a row per device that changed). */
export interface DeviceRow {
  name: string;
  key: string;
  enabled: boolean;
}
/** The stored details of a product. */
export interface ProductRow {
  name: string;
  enabled: boolean;
}

/** What the catalog store holds: the changes to the fixture, row by row. */
export interface CatalogRows {
  devices: Map<string, DeviceRow>;
  products: Map<string, ProductRow>;
  /** Device uid -> property name -> value (fixture values overridden, admin-defined names added). */
  properties: Map<string, Map<string, boolean | number | string>>;
  /** Relations inserted (`present`) or deleted (not) relative to the fixture's. */
  relations: { entity: string; parent: string; present: boolean }[];
  /**
   * True when `relations` is the whole set rather than changes (a database
   * migrated from the one-blob format, which stored the whole set).
   */
  relationsComplete: boolean;
}

/**
 * The catalog's changes, one row per device, product, property and relation:
 * a change writes its own rows only (decisions 10), never the whole catalog.
 */
export interface CatalogStore {
  load(): CatalogRows;
  saveDevice(uid: string, row: DeviceRow): void;
  saveProduct(uid: string, row: ProductRow): void;
  /** The given properties of one device, in one transaction. */
  saveProperties(device: string, values: Readonly<Record<string, boolean | number | string>>): void;
  saveRelation(entity: string, parent: string, present: boolean): void;
}

export interface Storage {
  readonly states: Series;
  readonly measurements: Series;
  readonly catalog: CatalogStore;
  /**
   * Undefined while writes may go ahead; else a promise that resolves when they may (a file's log is being
   * restarted, checkpointer.ts). The write routes await it; reads never do.
   */
  whenWritable(): Promise<void> | undefined;
  /** Writes and removes a probe row: throws when the database cannot be written (`/healthz`). */
  probe(): void;
  /** Bytes of the database file (pages x page size; 0 in memory is the used pages). */
  sizeBytes(): number;
  /** Closes the database; resolves once nothing (the checkpoint thread included) touches its files. */
  close(): Promise<void>;
}
