/**
 * Windowed aggregation (decisions 6). Without a window every raw point is a
 * record with `aggregated: "last"`. With `windowMs`, windows are aligned to the
 * Unix epoch; each non-empty window yields the series' aggregate stamped at the
 * window's stop (the last window at the range stop). `derivative.<unit>` is
 * Flux's derivative over consecutive raw points, (v2 - v1) / ((t2 - t1) / unit),
 * and a window yields the last derivative in it. A window holding a non-numeric
 * value (string, boolean, object, error) falls back to `last`.
 */
import type { Aggregate, LastAggregate } from './wire.js';
import type { Point, WindowStats } from './store/storage.js';

export interface AggregatedPoint {
  point: Point;
  aggregated: Aggregate;
}

const derivativeUnitMs: Readonly<Record<string, number>> = {
  'derivative.1s': 1000,
  'derivative.1m': 60_000,
  'derivative.1h': 3_600_000,
};

const isNumeric = (p: Point): boolean => typeof p.value === 'number' && p.error === undefined;

function withValue(from: Point, tsMs: number, value: number): Point {
  return { device: from.device, name: from.name, tsMs, value, error: undefined };
}

/** Derivative between two numeric points, per `unitMs`. */
function derivative(a: Point, b: Point, unitMs: number): number {
  return ((b.value as number) - (a.value as number)) / ((b.tsMs - a.tsMs) / unitMs);
}

function reduce(fn: Aggregate, points: readonly Point[], from: number, to: number): number {
  let acc = points[from]?.value as number;
  let sum = 0;
  for (let i = from; i < to; i++) {
    const v = (points[i] as Point).value as number;
    if (fn === 'min' && v < acc) acc = v;
    else if (fn === 'max' && v > acc) acc = v;
    sum += v;
  }
  return fn === 'mean' ? sum / (to - from) : acc;
}

/**
 * Aggregates one series' points (oldest first, all inside [start, stopMs)).
 * `windowMs` undefined: raw records.
 */
export function aggregateSeries(
  points: readonly Point[],
  fn: Aggregate,
  windowMs: number | undefined,
  stopMs: number,
): AggregatedPoint[] {
  if (windowMs === undefined) return points.map((point) => ({ point, aggregated: 'last' }));
  const unitMs = derivativeUnitMs[fn];
  const out: AggregatedPoint[] = [];
  let i = 0;
  while (i < points.length) {
    const first = points[i] as Point;
    const index = Math.floor(first.tsMs / windowMs);
    const windowStop = Math.min((index + 1) * windowMs, stopMs);
    let end = i;
    let numeric = true;
    while (end < points.length && Math.floor((points[end] as Point).tsMs / windowMs) === index) {
      if (!isNumeric(points[end] as Point)) numeric = false;
      end++;
    }
    const last = points[end - 1] as Point;
    if (!numeric || fn === 'last') {
      out.push({ point: { ...last, tsMs: windowStop }, aggregated: 'last' });
    } else if (unitMs !== undefined) {
      // The last derivative whose second point falls in this window.
      const prev = points[end - 2];
      if (prev !== undefined && isNumeric(prev)) {
        out.push({ point: withValue(last, windowStop, derivative(prev, last, unitMs)), aggregated: fn });
      }
    } else {
      out.push({ point: withValue(last, windowStop, reduce(fn, points, i, end)), aggregated: fn });
    }
    i = end;
  }
  return out;
}

/**
 * The same windows as `aggregateSeries` for `last`, `mean`, `min` and `max`,
 * from statistics the database computed (no per-point work in JavaScript).
 */
export function aggregateWindows(
  stats: readonly WindowStats[],
  fn: 'last' | 'mean' | 'min' | 'max',
  windowMs: number,
  stopMs: number,
): AggregatedPoint[] {
  return stats.map((w) => {
    const tsMs = Math.min((w.index + 1) * windowMs, stopMs);
    if (fn === 'last' || w.numeric < w.count) return { point: { ...w.last, tsMs }, aggregated: 'last' };
    const value = fn === 'mean' ? w.mean : fn === 'min' ? w.min : w.max;
    return { point: withValue(w.last, tsMs, value), aggregated: fn };
  });
}

/**
 * `read/last` (decisions 6): the channel's `aggregatedLast` of its newest points
 * (newest first). `last` yields the newest; a derivative needs two numeric points
 * and is stamped at the newest; a non-numeric newest point falls back to `last`.
 */
export function aggregateLast(newestFirst: readonly Point[], fn: LastAggregate): AggregatedPoint | undefined {
  const newest = newestFirst[0];
  if (newest === undefined) return undefined;
  const unitMs = derivativeUnitMs[fn];
  if (unitMs === undefined || !isNumeric(newest)) return { point: newest, aggregated: 'last' };
  const before = newestFirst[1];
  if (before === undefined || !isNumeric(before)) return undefined;
  return { point: withValue(newest, newest.tsMs, derivative(before, newest, unitMs)), aggregated: fn };
}
