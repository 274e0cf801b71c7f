/**
 * `--shard I/M` (fast-check): the M slices of any device list hold every
 * device exactly once, in order, with sizes that differ by at most one; bad
 * shard texts are refused with `config.invalid`.
 */
import fc from 'fast-check';
import { parseShard, shardBounds, shardSlice } from '../../host-sim/fleet/shard.js';
import { assert } from '../support/assert.js';

describe('fleet sharding', () => {
  it('M slices cover the list exactly once, in order, sizes within one of each other', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 5000 }), fc.integer({ min: 1, max: 200 }), (length, count) => {
        const devices = Array.from({ length }, (_, i) => `dev-${i}`);
        const slices = Array.from({ length: count }, (_, index) => shardSlice(devices, { index, count }));
        const seen = new Map<string, number>();
        for (const slice of slices) for (const d of slice) seen.set(d, (seen.get(d) ?? 0) + 1);
        assert.equal(seen.size, length, 'no device missed');
        for (const [d, n] of seen) assert.equal(n, 1, `${d} in one slice only`);
        assert.deepEqual(slices.flat(), devices, 'concatenated in order');
        const sizes = slices.map((s) => s.length);
        assert.ok(Math.max(...sizes) - Math.min(...sizes) <= 1, `sizes ${sizes.join(',')}`);
      }),
      { numRuns: 300 },
    );
  });

  it('bounds tile 0..length without gaps', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1_000_000 }), fc.integer({ min: 1, max: 1000 }), (length, count) => {
        let next = 0;
        for (let index = 0; index < count; index++) {
          const { start, end } = shardBounds(length, { index, count });
          assert.equal(start, next, `slice ${index} starts where ${index - 1} ended`);
          assert.ok(end >= start);
          next = end;
        }
        assert.equal(next, length);
      }),
    );
  });

  it('parses I/M and refuses anything else', () => {
    assert.deepEqual(parseShard('0/1'), { index: 0, count: 1 });
    assert.deepEqual(parseShard(' 3/4 '), { index: 3, count: 4 });
    for (const bad of ['', '1', '4/4', '5/4', '0/0', '-1/2', '1/2/3', 'a/b', '1.5/4', '1 /4x']) {
      assert.throws(() => parseShard(bad), 'config.invalid', bad);
    }
  });
});
