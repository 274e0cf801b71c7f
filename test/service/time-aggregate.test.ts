/**
 * Unit tests of the time parameters (Flux Durations, numbers, ISO 8601) and of
 * the window aggregation (decisions 6), without HTTP.
 */
import { strict as assert } from 'node:assert';
import { aggregateLast, aggregateSeries } from '../../host-sim/service/aggregate.js';
import type { Point } from '../../host-sim/service/store/storage.js';
import { parseDuration, parseTime, parseWindowPeriod, toWireSeconds } from '../../host-sim/service/time.js';

const now = Date.UTC(2026, 2, 31, 12, 0, 0);
const pt = (tsMs: number, value: Point['value'], error?: number): Point => ({
  device: 'd',
  name: 'x.reported',
  tsMs,
  value: error === undefined ? value : undefined,
  error,
});

describe('service time parameters', () => {
  it('parses Flux Durations with every unit, largest first', () => {
    assert.deepEqual(parseDuration('-1h30m'), { negative: true, months: 0, fixedMs: 5_400_000 });
    assert.deepEqual(parseDuration('1y2mo3w4d5h6m7s8ms9us10ns'), {
      negative: false,
      months: 14,
      fixedMs: 3 * 604_800_000 + 4 * 86_400_000 + 5 * 3_600_000 + 6 * 60_000 + 7000 + 8 + 0.009 + 0.00001,
    });
    assert.equal(parseDuration('5µs')?.fixedMs, 0.005);
    for (const bad of ['', '-', '1', 'h', '1h1h', '1m1h', '1us1µs', '1.5h', '1H', '+1h', '1h ', '--1h']) {
      assert.equal(parseDuration(bad), undefined, bad);
    }
  });

  it('resolves numbers as Unix seconds, ISO 8601 strings and negative Durations relative to now', () => {
    assert.equal(parseTime('t', 1700000000.5, now), 1700000000500);
    assert.equal(parseTime('t', '1700000000.25', now), 1700000000250);
    assert.equal(parseTime('t', '2026-03-31T11:00:00Z', now), now - 3_600_000);
    assert.equal(parseTime('t', '2026-03-31T13:00:00+02:00', now), now - 3_600_000);
    assert.equal(parseTime('t', '2026-03-31', now), Date.UTC(2026, 2, 31));
    assert.equal(parseTime('t', '-1h', now), now - 3_600_000);
    assert.equal(parseTime('t', '-1mo', now), Date.UTC(2026, 1, 28, 12)); // clamped to the month's last day
    assert.equal(parseTime('t', '-13mo', now), Date.UTC(2025, 1, 28, 12));
    assert.throws(() => parseTime('t', '2mo', now), /must be negative/);
    assert.equal(parseTime('t', '-1y', now), Date.UTC(2025, 2, 31, 12));
    assert.throws(() => parseTime('timeRangeStart', 'yesterday', now), /timeRangeStart: "yesterday"/);
    assert.throws(() => parseTime('t', '2026-13-45T99:00:00Z', now), /t:/);
    assert.throws(() => parseTime('t', true, now), /expected a number or a string/);
    assert.throws(() => parseTime('t', Number.NaN, now), /finite/);
  });

  it('parses windowPeriod as seconds or a positive fixed Duration', () => {
    assert.equal(parseWindowPeriod('60'), 60_000);
    assert.equal(parseWindowPeriod('0.5'), 500);
    assert.equal(parseWindowPeriod('1m30s'), 90_000);
    for (const bad of ['0', '-1m', '1mo', 'x', '100us', '1e400', '3651d', 'NaN'])
      assert.throws(() => parseWindowPeriod(bad), /windowPeriod/, bad);
  });

  it('writes timestamps as seconds with millisecond precision', () => {
    assert.equal(toWireSeconds(1700000000123), 1700000000.123);
    assert.equal(toWireSeconds(1700000000123.6), 1700000000.124);
  });
});

describe('service aggregation', () => {
  const points = [pt(1000, 1), pt(5000, 3), pt(10_000, 10), pt(19_000, 4)];

  it('returns raw records as last without a window', () => {
    assert.deepEqual(
      aggregateSeries(points, 'mean', undefined, 20_000).map((a) => [a.point.tsMs, a.point.value, a.aggregated]),
      points.map((p) => [p.tsMs, p.value, 'last']),
    );
  });

  it('computes mean, min, max and last per epoch-aligned window, stamped at the window stop', () => {
    const run = (fn: 'mean' | 'min' | 'max' | 'last'): unknown[] =>
      aggregateSeries(points, fn, 10_000, 15_000).map((a) => [a.point.tsMs, a.point.value, a.aggregated]);
    assert.deepEqual(run('mean'), [
      [10_000, 2, 'mean'],
      [15_000, 7, 'mean'],
    ]);
    assert.deepEqual(run('min'), [
      [10_000, 1, 'min'],
      [15_000, 4, 'min'],
    ]);
    assert.deepEqual(run('max'), [
      [10_000, 3, 'max'],
      [15_000, 10, 'max'],
    ]);
    assert.deepEqual(run('last'), [
      [10_000, 3, 'last'],
      [15_000, 4, 'last'],
    ]);
  });

  it('computes derivatives over consecutive raw points, the last one per window', () => {
    const d = aggregateSeries(points, 'derivative.1s', 10_000, 20_000).map((a) => [a.point.tsMs, a.point.value]);
    // Window 1: (3-1)/4 s; window 2: last pair (10 -> 4 over 9 s).
    assert.deepEqual(d, [
      [10_000, 0.5],
      [20_000, -6 / 9],
    ]);
    const first = aggregateSeries([pt(1000, 1)], 'derivative.1m', 10_000, 20_000);
    assert.deepEqual(first, []);
    const h = aggregateSeries([pt(0, 0), pt(1000, 1)], 'derivative.1h', 10_000, 20_000);
    assert.equal(h[0]?.point.value, 3600);
  });

  it('falls back to last for windows holding non-numeric values or errors', () => {
    const mixed = [pt(1000, 1), pt(2000, 'text'), pt(11_000, 2), pt(12_000, undefined, -5)];
    assert.deepEqual(
      aggregateSeries(mixed, 'mean', 10_000, 20_000).map((a) => [a.point.value ?? a.point.error, a.aggregated]),
      [
        ['text', 'last'],
        [-5, 'last'],
      ],
    );
  });

  it('applies aggregatedLast to the newest points', () => {
    assert.deepEqual(aggregateLast([pt(5000, 7), pt(4000, 5)], 'last'), { point: pt(5000, 7), aggregated: 'last' });
    assert.equal(aggregateLast([pt(5000, 7), pt(4000, 5)], 'derivative.1s')?.point.value, 2);
    assert.equal(aggregateLast([pt(5000, 7)], 'derivative.1s'), undefined);
    assert.deepEqual(aggregateLast([pt(5000, true), pt(4000, 5)], 'derivative.1s')?.aggregated, 'last');
    assert.equal(aggregateLast([], 'last'), undefined);
  });
});
