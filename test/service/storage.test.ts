/**
 * The SQLite storage behind its interface: value types round-trip with their
 * JSON type, same-time points replace, the newest point of a series never
 * moves backwards and is rebuilt from the history when the file is reopened, and the database's window statistics agree with the reference
 * aggregation in JavaScript on random series (property test).
 */
import { strict as assert } from 'node:assert';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { aggregateSeries, aggregateWindows } from '../../host-sim/service/aggregate.js';
import { openSqliteStorage } from '../../host-sim/service/store/sqlite-storage.js';
import type { Point, Storage } from '../../host-sim/service/store/storage.js';

const p = (name: string, tsMs: number, value: Point['value'], error?: number): Point => ({
  device: 'd',
  name,
  tsMs,
  value: error === undefined ? value : undefined,
  error,
});

describe('service storage (SQLite)', () => {
  let s: Storage;
  beforeEach(() => {
    s = openSqliteStorage(':memory:');
  });
  afterEach(() => s.close());

  it('rebuilds the newest point of every series from the history when a database file is reopened', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dds-storage-'));
    // The checkpoint thread's port: open while the file is, gone once close() resolves.
    const ports = (): number => process.getActiveResourcesInfo().filter((r) => r === 'MessagePort').length;
    const portsBefore = ports();
    try {
      const file = openSqliteStorage(join(dir, 'db.sqlite'));
      assert.equal(ports(), portsBefore + 1, 'a file has a checkpoint thread');
      file.states.write([p('x', 30, 3), p('x', 10, 1), p('y', 5, 'five'), p('z', 7, undefined, -5)]);
      file.states.write([{ ...p('w', 1, true), device: 'other' }]);
      const before = file.states.latest('d', null, 0);
      await file.close();
      // Closed means closed: the checkpoint thread has ended (nothing opens the files after this, a scratch
      // folder may go), and the last connection out removed the log's files.
      assert.equal(ports(), portsBefore, 'the checkpoint thread ended before close() resolved');
      assert.deepEqual(readdirSync(dir), ['db.sqlite']);
      const again = openSqliteStorage(join(dir, 'db.sqlite'));
      assert.deepEqual(again.states.latest('d', null, 0), before);
      assert.deepEqual(
        before.map((q) => [q.name, q.tsMs]),
        [
          ['x', 30],
          ['y', 5],
          ['z', 7],
        ],
      );
      assert.deepEqual(again.states.names('d'), ['x', 'y', 'z']);
      assert.deepEqual(again.states.latest('other', ['w', 'ghost', 'w'], 0).length, 1);
      await again.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('round-trips numbers, strings, booleans, objects and errors with their types', () => {
    const points = [
      p('a', 1, 1.5),
      p('b', 1, '12'),
      p('c', 1, false),
      p('d', 1, { lat: 1, nested: [1] }),
      p('e', 1, undefined, -5),
    ];
    s.measurements.write(points);
    const back = s.measurements.latest('d', null, 0);
    assert.deepEqual(back, points);
    assert.equal(typeof back[1]?.value, 'string');
  });

  it('replaces a point with the same timestamp and keeps the newest in the latest-value table', () => {
    s.states.write([p('x', 10, 1), p('x', 20, 2)]);
    s.states.write([p('x', 5, 0)]);
    assert.deepEqual(s.states.latest('d', ['x'], 0), [p('x', 20, 2)]);
    s.states.write([p('x', 20, 3)]);
    assert.deepEqual(s.states.latest('d', ['x'], 0), [p('x', 20, 3)]);
    assert.deepEqual(
      s.states.range('d', 'x', 0, 100, 1000).map((q) => q.value),
      [0, 1, 3],
    );
    assert.deepEqual(
      s.states.newest('d', 'x', 2).map((q) => q.tsMs),
      [20, 10],
    );
    assert.deepEqual(s.states.latest('d', ['x'], 21), []);
    assert.deepEqual(s.states.names('d'), ['x']);
    assert.deepEqual(s.states.names('other'), []);
  });

  it('answers latest and names sorted by name, including names that appear after a read', () => {
    s.states.write([p('m', 1, 1), p('c', 1, 2)]);
    assert.deepEqual(
      s.states.latest('d', null, 0).map((q) => q.name),
      ['c', 'm'],
    );
    s.states.names('d').reverse(); // a caller's copy: the storage's order stays
    s.states.write([p('a', 2, 3), p('z', 2, 4), p('c', 3, 5)]);
    assert.deepEqual(
      s.states.latest('d', null, 0).map((q) => [q.name, q.value]),
      [
        ['a', 3],
        ['c', 5],
        ['m', 1],
        ['z', 4],
      ],
    );
    assert.deepEqual(s.states.names('d'), ['a', 'c', 'm', 'z']);
    assert.deepEqual(
      s.states.latest('d', ['z', 'a', 'z', 'ghost'], 0).map((q) => q.name),
      ['a', 'z'],
    );
  });

  it('computes the same windows in the database as the reference aggregation, for few and for many windows', () => {
    const value = fc.oneof(
      { weight: 8, arbitrary: fc.integer({ min: -1000, max: 1000 }) },
      { weight: 1, arbitrary: fc.constant<Point['value']>('s') },
      { weight: 1, arbitrary: fc.boolean() },
    );
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.record({ ts: fc.integer({ min: 0, max: 100_000 }), v: value }), {
          selector: (r) => r.ts,
          maxLength: 60,
        }),
        fc.constantFrom<'mean' | 'min' | 'max' | 'last'>('mean', 'min', 'max', 'last'),
        // Both ways the storage computes windows: over 200 windows in the 60 s range (1..299 ms) one
        // GROUP BY query, otherwise one range aggregate per window.
        fc.oneof(fc.integer({ min: 1, max: 299 }), fc.integer({ min: 300, max: 30_000 })),
        fc.integer({ min: 0, max: 50_000 }),
        (rows, fn, windowMs, startMs) => {
          const storage = openSqliteStorage(':memory:');
          try {
            const stopMs = startMs + 60_000;
            storage.states.write(rows.map((r) => p('x', r.ts, r.v)));
            const reference = aggregateSeries(
              storage.states.range('d', 'x', startMs, stopMs, 1e6),
              fn,
              windowMs,
              stopMs,
            );
            const fromDb = aggregateWindows(
              storage.states.windowStats('d', 'x', startMs, stopMs, windowMs, 1e6),
              fn,
              windowMs,
              stopMs,
            );
            assert.equal(fromDb.length, reference.length);
            fromDb.forEach((a, i) => {
              const r = reference[i] as (typeof reference)[number];
              assert.equal(a.aggregated, r.aggregated);
              assert.equal(a.point.tsMs, r.point.tsMs);
              if (typeof r.point.value === 'number')
                assert.ok(Math.abs((a.point.value as number) - r.point.value) < 1e-9);
              else assert.deepEqual(a.point.value, r.point.value);
            });
          } finally {
            storage.close();
          }
        },
      ),
      { numRuns: 200 },
    );
  });
});
