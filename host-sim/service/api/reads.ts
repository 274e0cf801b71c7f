/**
 * The four history reads (spec 4.6-4.7, decisions 6), shared by states and
 * measurements: `read` over [timeRangeStart, timeRangeStop) (defaults -1h and
 * now), raw or in `windowPeriod` windows with the series' `aggregated`; and
 * `read/last` with the series' `aggregatedLast` (start unbounded by default).
 * A read answers at most `maxRecordsPerRead` records; beyond, a 400 asks for a
 * narrower range, fewer names or a window (decisions 6, limits).
 */
import { aggregateLast, aggregateSeries, aggregateWindows, type AggregatedPoint } from '../aggregate.js';
import type { Device, Product } from '../catalog.js';
import type { ServiceContext } from '../context.js';
import { badRequest } from '../errors.js';
import type { Params } from '../http/query.js';
import type { Router } from '../http/router.js';
import type { Series } from '../store/storage.js';
import { parseTime, parseWindowPeriod, toWireSeconds } from '../time.js';
import { concreteNames, type Selection } from './names.js';
import { resolveReadDevices } from './resolve.js';
import type { Aggregate, LastAggregate } from '../wire.js';

export interface SeriesKind {
  /** `channel` for states, `metric` for measurements. */
  field: 'channel' | 'metric';
  /** `channels` or `metrics`. */
  param: 'channels' | 'metrics';
  series(context: ServiceContext): Series;
  selection(list: string[] | undefined, products: readonly Product[]): Selection;
  aggregates(product: Product, name: string): { aggregated: Aggregate; aggregatedLast: LastAggregate };
}

/**
 * One record of a read response (spec 2.6 / 2.7). Each of the four shapes is
 * one object literal, so every record of a response shares its hidden class
 * (serialisation stays on the engine's fast path); the key order is the wire's.
 */
export function recordOf(kind: SeriesKind['field'], device: Device, a: AggregatedPoint): Record<string, unknown> {
  const { point, aggregated } = a;
  const id = `${device.product.uid}:${point.name}`;
  const entity = device.uid;
  const timestamp = toWireSeconds(point.tsMs);
  const error = point.error;
  if (kind === 'channel') {
    return error === undefined
      ? { channel: id, value: point.value, aggregated, entity, timestamp }
      : { channel: id, error, aggregated, entity, timestamp };
  }
  return error === undefined
    ? { metric: id, value: point.value, aggregated, entity, timestamp }
    : { metric: id, error, aggregated, entity, timestamp };
}

const unboundedStartMs = -8.64e15;

/** Records in one read response at most. */
export const maxRecordsPerRead = 10_000;
/** Raw points one series may contribute to a derivative window read. */
export const maxPointsScannedPerSeries = 100_000;

function tooMany(): Error {
  return badRequest(
    `the read would answer more than ${maxRecordsPerRead} records; narrow timeRangeStart/timeRangeStop, ` +
      'name fewer channels or devices, or use windowPeriod',
  );
}

function optTime(params: Params, name: string, nowMs: number): number | undefined {
  const v = params.string(name);
  return v === undefined ? undefined : parseTime(name, v, nowMs);
}

function scope(context: ServiceContext, kind: SeriesKind, params: Params, devices: Device[]): Selection {
  const products = [...new Set(devices.map((d) => d.product))];
  return kind.selection(params.list(kind.param), products.length > 0 ? products : context.catalog.products);
}

export function addReadRoutes(router: Router, context: ServiceContext, kind: SeriesKind, base: string): void {
  router.add('GET', `${base}/read`, (request) => {
    const devices = resolveReadDevices(context.catalog, request.params, request.principal, false);
    const sel = scope(context, kind, request.params, devices);
    const stopMs = optTime(request.params, 'timeRangeStop', request.nowMs) ?? request.nowMs;
    const startMs = optTime(request.params, 'timeRangeStart', request.nowMs) ?? request.nowMs - 3_600_000;
    if (startMs >= stopMs) throw badRequest('timeRangeStart must be before timeRangeStop');
    const period = request.params.string('windowPeriod');
    const windowMs = period === undefined ? undefined : parseWindowPeriod(period);
    const series = kind.series(context);
    const out: Record<string, unknown>[] = [];
    for (const d of devices) {
      const names = concreteNames(sel, () => series.names(d.uid)) ?? series.names(d.uid);
      for (const name of [...names].sort()) {
        const fn = kind.aggregates(d.product, name).aggregated;
        const [from, to] = [Math.ceil(startMs), Math.ceil(stopMs)];
        const left = maxRecordsPerRead - out.length;
        let aggregated: AggregatedPoint[];
        if (windowMs !== undefined && from >= 0 && !fn.startsWith('derivative')) {
          const stats = series.windowStats(d.uid, name, from, to, windowMs, left + 1);
          if (stats.length > left) throw tooMany();
          aggregated = aggregateWindows(stats, fn as 'mean', windowMs, stopMs);
        } else {
          // Raw records map one to one; a derivative window may reduce many points to one.
          const limit = windowMs === undefined ? left : maxPointsScannedPerSeries;
          const points = series.range(d.uid, name, from, to, limit + 1);
          if (points.length > limit) {
            if (windowMs === undefined) throw tooMany();
            throw badRequest(`${name}: more than ${limit} points in the range; narrow timeRangeStart/timeRangeStop`);
          }
          aggregated = aggregateSeries(points, fn, windowMs, stopMs);
          if (aggregated.length > left) throw tooMany();
        }
        for (const a of aggregated) out.push(recordOf(kind.field, d, a));
      }
    }
    return out;
  });

  router.add('GET', `${base}/read/last`, (request) => {
    const devices = resolveReadDevices(context.catalog, request.params, request.principal, true);
    const sel = scope(context, kind, request.params, devices);
    const startMs = Math.ceil(optTime(request.params, 'timeRangeStart', request.nowMs) ?? unboundedStartMs);
    const series = kind.series(context);
    const out: Record<string, unknown>[] = [];
    // A wildcard-only selection reads every newest point of the device once and filters by side.
    const wildcardOnly = !sel.all && sel.names.length === 0;
    const suffixes = sel.sides.map((side) => `.${side}`);
    for (const d of devices) {
      const names = wildcardOnly ? null : concreteNames(sel, () => series.names(d.uid));
      for (const latest of series.latest(d.uid, names, startMs)) {
        if (wildcardOnly && !suffixes.some((suffix) => latest.name.endsWith(suffix))) continue;
        const fn = kind.aggregates(d.product, latest.name).aggregatedLast;
        const points = fn === 'last' ? [latest] : series.newest(d.uid, latest.name, 2).filter((p) => p.tsMs >= startMs);
        const a = aggregateLast(points, fn);
        if (a) out.push(recordOf(kind.field, d, a));
        if (out.length > maxRecordsPerRead) throw tooMany();
      }
    }
    return out;
  });
}
