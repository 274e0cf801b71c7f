/**
 * Our J1939 identifier decoding against @canboat/canboatjs's parser (an
 * independent implementation, used in tests only), over the worked examples and
 * many random 29-bit identifiers. canboatjs's PGN leaves out the extended data
 * page bit (NMEA 2000 never sets it), so that bit is compared separately.
 */
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import fc from 'fast-check';
import { decodeJ1939Id, encodeJ1939Id } from '../../src/can/j1939-id.js';

const require = createRequire(import.meta.url);
const { parseCanId, encodeCanId } = require('@canboat/canboatjs/dist/canId.js') as {
  parseCanId(id: number): { prio: number; src: number; pgn: number; dst: number };
  encodeCanId(id: { prio: number; src: number; pgn: number; dst: number }): number;
};

describe('J1939 ids agree with @canboat/canboatjs', () => {
  it('on the worked examples', () => {
    for (const id of [0x0cf00400, 0x18fef100, 0x18ea00f9]) {
      const ours = decodeJ1939Id(id);
      const theirs = parseCanId(id);
      assert.deepEqual(
        [ours.priority, ours.pgn, ours.sourceAddress, ours.destinationAddress],
        [theirs.prio, theirs.pgn, theirs.src, theirs.dst],
        id.toString(16),
      );
    }
    assert.equal(parseCanId(0x0cf00400).pgn, 61444);
    assert.equal(parseCanId(0x18fef100).pgn, 65265);
  });

  it('on random 29-bit identifiers, both ways', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 0x1fffffff }), (id) => {
        const ours = decodeJ1939Id(id);
        const theirs = parseCanId(id);
        const edp = (id >>> 25) & 1;
        assert.equal(ours.pgn, theirs.pgn + edp * 0x20000);
        assert.equal(ours.priority, theirs.prio);
        assert.equal(ours.sourceAddress, theirs.src);
        assert.equal(ours.destinationAddress, theirs.dst);
        if (edp === 0) {
          const back = encodeJ1939Id(ours.priority, ours.pgn, ours.sourceAddress, ours.destinationAddress);
          assert.equal(back, encodeCanId(theirs));
          assert.equal(back, id);
        }
      }),
      { numRuns: 2000 },
    );
  });
});
