import type { DataLayout, DataType } from '../../../src/config/model.js';
import { DataTypeBits } from '../../../src/wire.js';
import { decodeData, encodeData, isFailure, readBits, type Decoded } from '../../../src/codec/field.js';
import { Errno } from '../../../src/errno.js';
import { assert } from '../../support/assert.js';

function layout(dataType: DataType, dataOrder: DataLayout['dataOrder'] = 'bigEndian', offset = 0, size?: number) {
  return { dataType, dataOrder, dataOffsetBits: offset, dataSizeBits: size ?? DataTypeBits[dataType] };
}
const bytes = (...b: number[]) => Uint8Array.from(b);

/** The window with every field moved one bit further in the order's bit numbering (a 0 bit enters first). */
function shiftLeftOneBit(window: Uint8Array, big: boolean): Uint8Array {
  const out = new Uint8Array(window.length + 1);
  for (let p = 0; p < window.length * 8; p++) {
    const from = big ? p ^ 7 : p;
    if (((window[from >> 3]! >> (from & 7)) & 1) === 0) continue;
    const to = big ? (p + 1) ^ 7 : p + 1;
    out[to >> 3]! |= 1 << (to & 7);
  }
  return out;
}

function errnoOf(x: Decoded | undefined): number | undefined {
  return x !== undefined && isFailure(x) ? x.errno : undefined;
}

describe('codec/field: decoding (decisions.md section 2)', () => {
  it('decodes every integer width in both orders', () => {
    const w = bytes(0x12, 0x34, 0x56, 0x78, 0x9a, 0xbc, 0xde, 0xf0);
    assert.equal(decodeData(w, layout('uint8')), 0x12);
    assert.equal(decodeData(w, layout('int8', 'bigEndian', 32)), 0x9a - 256);
    assert.equal(decodeData(w, layout('uint16')), 0x1234);
    assert.equal(decodeData(w, layout('uint16', 'littleEndian')), 0x3412);
    assert.equal(decodeData(w, layout('int16', 'bigEndian', 32)), 0x9abc - 0x10000);
    assert.equal(decodeData(w, layout('uint32')), 0x12345678);
    assert.equal(decodeData(w, layout('uint32', 'littleEndian')), 0x78563412);
    assert.equal(decodeData(w, layout('int32', 'bigEndian', 32)), 0x9abcdef0 - 2 ** 32);
  });

  it('littleEndian is the full reverse of the bigEndian byte string (registers too)', () => {
    // uint32 0x11223344 in two registers, least significant register and byte first.
    assert.equal(decodeData(bytes(0x44, 0x33, 0x22, 0x11), layout('uint32', 'littleEndian')), 0x11223344);
    assert.equal(decodeData(bytes(0x11, 0x22, 0x33, 0x44), layout('uint32', 'bigEndian')), 0x11223344);
  });

  it('takes dataOffset and dataSize in bits, sign-extending narrow signed fields', () => {
    const w = bytes(0b1011_0110, 0xff);
    assert.equal(decodeData(w, layout('uint8', 'bigEndian', 2, 3)), 0b110);
    assert.equal(decodeData(w, layout('int8', 'bigEndian', 0, 4)), 0b1011 - 16);
    assert.equal(decodeData(w, layout('uint8', 'littleEndian', 1, 3)), 0b011);
    assert.equal(decodeData(w, layout('bool', 'bigEndian', 0, 1)), true);
    assert.equal(decodeData(w, layout('bool', 'littleEndian', 0, 1)), false);
    // J1939 engine speed: bytes 4-5 (offset 24), little endian, 0x1AC4 = 6852.
    assert.equal(
      decodeData(bytes(0xf0, 0x7d, 0xa0, 0xc4, 0x1a, 0xff, 0xff, 0xff), layout('uint16', 'littleEndian', 24, 16)),
      6852,
    );
  });

  it('reports 64-bit integers as numbers when exact, as decimal strings otherwise', () => {
    assert.equal(decodeData(bytes(0, 0, 0, 0, 0, 0, 1, 0), layout('uint64')), 256);
    assert.equal(decodeData(bytes(0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xfe), layout('int64')), -2);
    assert.equal(
      decodeData(bytes(0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff), layout('uint64')),
      '18446744073709551615',
    );
    assert.equal(decodeData(bytes(0x80, 0, 0, 0, 0, 0, 0, 1), layout('int64')), '-9223372036854775807');
    assert.equal(decodeData(bytes(0x10, 0, 0, 0, 0, 0, 0, 0), layout('uint64')), 2 ** 60);
    assert.equal(decodeData(bytes(0, 0x20, 0, 0, 0, 0, 0, 1), layout('uint64')), '9007199254740993');
  });

  it('decodes IEEE-754 floats and the Siemens totalizer; non-finite is -ERANGE', () => {
    assert.equal(decodeData(bytes(0x41, 0x48, 0, 0), layout('float32')), 12.5);
    assert.equal(decodeData(bytes(0, 0, 0x48, 0x41), layout('float32', 'littleEndian')), 12.5);
    assert.equal(decodeData(bytes(0x40, 0x09, 0x21, 0xfb, 0x54, 0x44, 0x2d, 0x18), layout('float64')), Math.PI);
    assert.equal(decodeData(bytes(0x40, 0xfe, 0x24, 0x0c, 0, 0, 0, 0), layout('siemensTotalType')), 123456.75);
    assert.equal(errnoOf(decodeData(bytes(0x7f, 0xc0, 0, 0), layout('float32'))), Errno.ERANGE);
    assert.equal(errnoOf(decodeData(bytes(0x7f, 0x80, 0, 0), layout('float32'))), Errno.ERANGE);
  });

  it('reads whole-byte fields a byte at a time exactly as bit by bit: every width, offset and order', () => {
    const window = Uint8Array.from({ length: 12 }, (_, i) => (i * 151 + 89) & 0xff);
    const out = { hi: 0, lo: 0 };
    for (let size = 8; size <= 64; size += 8) {
      for (let offset = 0; offset + size <= 96; offset += 8) {
        for (const big of [false, true]) {
          let expected = 0n;
          for (let k = 0; k < size / 8; k++) {
            const byte = window[big ? offset / 8 + k : offset / 8 + size / 8 - 1 - k]!;
            expected = (expected << 8n) | BigInt(byte);
          }
          readBits(window, offset, size, big, out);
          const got = (BigInt(out.hi) << 32n) | BigInt(out.lo);
          assert.equal(got, expected, `size ${size} offset ${offset} ${big ? 'big' : 'little'}`);
          // The same field one bit further, from a window shifted by one bit, takes the bit-by-bit path.
          const shifted = shiftLeftOneBit(window, big);
          readBits(shifted, offset + 1, size, big, out);
          assert.equal((BigInt(out.hi) << 32n) | BigInt(out.lo), expected, `bit path, size ${size} offset ${offset}`);
        }
      }
    }
  });

  it('fails with -EIO when the window is shorter than the field', () => {
    assert.equal(errnoOf(decodeData(bytes(1, 2, 3), layout('uint32'))), Errno.EIO);
    assert.equal(errnoOf(decodeData(bytes(1, 2), layout('uint8', 'littleEndian', 9, 8))), Errno.EIO);
  });
});

describe('codec/field: encoding desired values (range-checked)', () => {
  function encoded(value: Parameters<typeof encodeData>[0], l: DataLayout, size = 8): Uint8Array | number {
    const w = new Uint8Array(size);
    const f = encodeData(value, l, w);
    return f === undefined ? w : f.errno;
  }

  it('round-trips every type in both orders', () => {
    const cases: [DataType, number | boolean | string][] = [
      ['bool', true],
      ['int8', -100],
      ['uint8', 200],
      ['int16', -30000],
      ['uint16', 65535],
      ['int32', -2e9],
      ['uint32', 4e9],
      ['int64', '-9223372036854775807'],
      ['uint64', '18446744073709551615'],
      ['int64', -5],
      ['float32', 12.5],
      ['float64', Math.E],
      ['siemensTotalType', 98765.4321],
    ];
    for (const order of ['bigEndian', 'littleEndian'] as const) {
      for (const [type, value] of cases) {
        const l = layout(type, order, type === 'bool' ? 5 : 0);
        const w = encoded(value, l);
        assert.ok(w instanceof Uint8Array, `${type} ${order} encodes`);
        assert.equal(decodeData(w, l), value, `${type} ${order}`);
      }
    }
  });

  it('keeps the other bits of the window (read-modify-write)', () => {
    const w = bytes(0xff, 0xff);
    assert.equal(encodeData(0, layout('uint8', 'bigEndian', 4, 4), w), undefined);
    assert.deepEqual(w, bytes(0xf0, 0xff));
  });

  it('refuses out-of-range values with -ERANGE and wrong types with -EINVAL', () => {
    assert.equal(encoded(256, layout('uint8')), Errno.ERANGE);
    assert.equal(encoded(-1, layout('uint16')), Errno.ERANGE);
    assert.equal(encoded(-129, layout('int8')), Errno.ERANGE);
    assert.equal(encoded(8, layout('uint8', 'bigEndian', 0, 3)), Errno.ERANGE);
    assert.equal(encoded(4e38, layout('float32')), Errno.ERANGE);
    assert.equal(encoded('18446744073709551616', layout('uint64')), Errno.ERANGE);
    assert.equal(encoded(2, layout('bool')), Errno.ERANGE);
    assert.equal(encoded('x', layout('uint16')), Errno.EINVAL);
    assert.equal(encoded(true, layout('uint16')), Errno.EINVAL);
    assert.equal(encoded('1', layout('float32')), Errno.EINVAL);
  });

  it('rounds integer values to the nearest count, then checks the exact bounds of dataSize bits', () => {
    const w = encoded(124.99999999999999, layout('uint16'));
    assert.ok(w instanceof Uint8Array);
    assert.equal(decodeData(w, layout('uint16')), 125);
    const nibble = layout('int8', 'bigEndian', 0, 4);
    assert.equal(decodeData(encoded(7.4, nibble) as Uint8Array, nibble), 7);
    assert.equal(decodeData(encoded(-8.4, nibble) as Uint8Array, nibble), -8);
    assert.equal(encoded(7.5, nibble), Errno.ERANGE);
    assert.equal(encoded(-8.6, nibble), Errno.ERANGE);
    assert.equal(decodeData(encoded(-0.4, layout('uint16')) as Uint8Array, layout('uint16')), 0);
    const big = layout('uint64');
    assert.equal(decodeData(encoded(2 ** 60, big) as Uint8Array, big), 2 ** 60, 'beyond 2^53 a double is exact');
    assert.equal(encoded(3.4028235e38, layout('float32')) instanceof Uint8Array, true, 'rounds to the largest float32');
  });
});
