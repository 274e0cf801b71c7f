/**
 * The storage port of the local service: two time series (states, measurements)
 * with the newest point of each series at hand, plus the persisted catalog. The
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

export interface Storage {
  readonly states: Series;
  readonly measurements: Series;
  /** The persisted catalog snapshot (JSON text), if any. */
  loadCatalog(): string | undefined;
  saveCatalog(json: string): void;
  close(): void;
}
