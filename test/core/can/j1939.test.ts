import { BamReassembler } from '../../../src/can/bam.js';
import { decodeJ1939Id, encodeJ1939Id, Pgn } from '../../../src/can/j1939-id.js';
import { j1939Indicator } from '../../../src/can/j1939-values.js';
import { Errno } from '../../../src/errno.js';
import { FakeClock } from '../../fakes/fake-clock.js';
import { assert } from '../../support/assert.js';

describe('can/j1939-id: identifiers (J1939-21 5.2)', () => {
  it('decodes the worked examples', () => {
    assert.deepEqual(decodeJ1939Id(0x0cf00400), {
      priority: 3,
      pgn: 61444,
      sourceAddress: 0,
      destinationAddress: 255,
      pdu1: false,
    });
    const ccvs1 = decodeJ1939Id(0x18fef100);
    assert.equal(ccvs1.pgn, 65265);
    assert.equal(ccvs1.priority, 6);
    assert.deepEqual(decodeJ1939Id(0x18ea00f9), {
      priority: 6,
      pgn: Pgn.request,
      sourceAddress: 0xf9,
      destinationAddress: 0x00,
      pdu1: true,
    });
  });

  it('keeps the data page and extended data page in the PGN', () => {
    assert.equal(decodeJ1939Id(0x19fef100).pgn, 0x1fef1);
    assert.equal(decodeJ1939Id(0x1af00400).pgn, 0x2f004);
  });

  it('encodes the inverse of decoding', () => {
    assert.equal(encodeJ1939Id(3, 61444, 0), 0x0cf00400);
    assert.equal(encodeJ1939Id(6, Pgn.request, 0xf9, 0x00), 0x18ea00f9);
    assert.equal(encodeJ1939Id(6, 65265, 0x00, 0x12), 0x18fef100, 'PDU2 ignores the destination');
  });
});

describe('can/j1939-values: not available and error indicators (J1939-71)', () => {
  const ind = (lo: number, size: number, hi = 0) => j1939Indicator({ hi, lo }, size)?.errno;
  it('reports not available as -EOPNOTSUPP and errors as -EIO', () => {
    assert.equal(ind(0xff, 8), Errno.EOPNOTSUPP);
    assert.equal(ind(0xfe, 8), Errno.EIO);
    assert.equal(ind(0xfa, 8), undefined);
    assert.equal(ind(0xffff, 16), Errno.EOPNOTSUPP);
    assert.equal(ind(0xfe12, 16), Errno.EIO);
    assert.equal(ind(0xfaff, 16), undefined);
    assert.equal(ind(0xfe000000, 32), Errno.EIO);
    assert.equal(ind(0b11, 2), Errno.EOPNOTSUPP);
    assert.equal(ind(0b10, 2), Errno.EIO);
    assert.equal(ind(0b01, 2), undefined);
    assert.equal(ind(1, 1), undefined);
    assert.equal(ind(0, 64, 0xff000000), Errno.EOPNOTSUPP);
    assert.equal(ind(0xfe000000, 40, 0xff), Errno.EOPNOTSUPP);
  });
});

describe('can/bam: multi-packet broadcasts (J1939-21 5.10)', () => {
  const cm = (size: number, packets: number, pgn: number) =>
    Uint8Array.of(32, size & 0xff, size >> 8, packets, 0xff, pgn & 0xff, (pgn >> 8) & 0xff, pgn >> 16);
  const dt = (seq: number, ...b: number[]) => Uint8Array.of(seq, ...b, ...new Array<number>(7 - b.length).fill(0xff));

  it('reassembles a broadcast announced by TP.CM from its TP.DT packets', () => {
    const clock = new FakeClock();
    const got: [number, number, number[]][] = [];
    const bam = new BamReassembler(clock, (pgn, sa, data) => got.push([pgn, sa, Array.from(data)]));
    bam.connectionManagement(0x17, cm(10, 2, 65226));
    clock.advance(50);
    bam.dataTransfer(0x17, dt(1, 1, 2, 3, 4, 5, 6, 7));
    clock.advance(50);
    bam.dataTransfer(0x17, dt(2, 8, 9, 10));
    assert.deepEqual(got, [[65226, 0x17, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]]]);
    assert.equal(bam.counters.completed, 1);
    assert.equal(bam.active, 0);
  });

  it('drops a session on a sequence gap or after the 750 ms packet timeout', () => {
    const clock = new FakeClock();
    let delivered = 0;
    const bam = new BamReassembler(clock, () => delivered++);
    bam.connectionManagement(1, cm(14, 2, 65226));
    bam.dataTransfer(1, dt(2, 1));
    bam.connectionManagement(2, cm(14, 2, 65226));
    bam.dataTransfer(2, dt(1, 1));
    clock.advance(751);
    bam.dataTransfer(2, dt(2, 1));
    assert.equal(delivered, 0);
    assert.equal(bam.counters.dropped, 2);
  });

  it('bounds concurrent sessions and refuses bad announcements', () => {
    const clock = new FakeClock();
    const bam = new BamReassembler(clock, () => undefined, 2);
    bam.connectionManagement(1, cm(20, 3, 1));
    bam.connectionManagement(2, cm(20, 3, 1));
    bam.connectionManagement(3, cm(20, 3, 1));
    bam.connectionManagement(4, cm(2000, 255, 1));
    bam.connectionManagement(5, cm(20, 4, 1));
    assert.equal(bam.active, 2);
    assert.equal(bam.counters.refused, 3);
  });
});
