/**
 * Property tests of the chunked download (fast-check, Node): any image length
 * and chunk size, a dropped request at every position and transfers cut at any
 * byte; the slot always ends with the image, byte for byte, each request resuming
 * with a Range from the byte reached.
 */
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { board, drain, makeImage, propertiesFor } from '../core/ota/harness.js';

/** Runs A -> B with the faults set by `fault`; answers the board once settled. */
async function run(length: number, chunkBytes: number, fault: (b: ReturnType<typeof board>) => void) {
  const a = board('1.0.0', undefined, { chunkBytes, maxAttempts: 1000, retry: { nextDelayMs: () => 10 } });
  const image = makeImage(length, length);
  a.http.images.set('b.bin', image);
  a.http.properties = propertiesFor('1.1.0', image);
  fault(a);
  await a.updater.start();
  for (let i = 0; i < 400 && a.slots.restarted === 0; i++) {
    await drain();
    await a.clock.advanceAsync(10);
  }
  return { a, image };
}

/** Every Range asked starts at the byte reached by the whole ranges before it. */
function assertResumes(ranges: string[], answered: (n: number) => number): void {
  let reached = 0;
  ranges.forEach((range, n) => {
    assert.equal(Number(/^bytes=(\d+)-/.exec(range)?.[1]), reached, `request ${n}: ${range}`);
    reached += answered(n);
  });
}

describe('ota download: properties', () => {
  it('a drop at every request position: the image arrives whole, each retry resuming at the byte reached', async () => {
    const length = 5000;
    const chunk = 700;
    const chunks = Math.ceil(length / chunk);
    for (let drop = 0; drop <= chunks; drop++) {
      const { a, image } = await run(length, chunk, (b) => b.http.drops.add(drop));
      assert.deepEqual(a.slots.completed, image, `drop at request ${drop}`);
      assert.equal(a.http.ranges.length, chunks + (drop < chunks ? 1 : 0));
      assertResumes(a.http.ranges, (n) => (n === drop ? 0 : Math.min(chunk, length - chunk * (n > drop ? n - 1 : n))));
      assert.equal(a.updater.status, 'installed');
    }
  });

  it('any length, chunk size, drops and cuts at any byte: the slot holds the image, resumed by Range', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 12_000 }),
        fc.integer({ min: 64, max: 4096 }),
        fc.uniqueArray(fc.integer({ min: 0, max: 40 }), { maxLength: 12 }),
        fc.array(fc.tuple(fc.integer({ min: 0, max: 40 }), fc.integer({ min: 0, max: 4096 })), { maxLength: 6 }),
        async (length, chunkBytes, drops, cuts) => {
          const { a, image } = await run(length, chunkBytes, (b) => {
            for (const d of drops) b.http.drops.add(d);
            for (const [n, keep] of cuts) if (!b.http.drops.has(n)) b.http.cuts.set(n, keep);
          });
          assert.deepEqual(a.slots.completed, image);
          assert.equal(a.slots.opened, 1);
          // A dropped or cut request gains nothing; every other one a whole range.
          let reached = 0;
          a.http.ranges.forEach((range, n) => {
            assert.equal(Number(/^bytes=(\d+)-/.exec(range)?.[1]), reached, `request ${n}`);
            // The fake server cuts at least one byte of a cut request.
            const lost = a.http.drops.has(n) || a.http.cuts.has(n);
            if (!lost) reached += Math.min(chunkBytes, length - reached);
          });
          assert.equal(reached, length);
        },
      ),
      { numRuns: 60 },
    );
  });
});
