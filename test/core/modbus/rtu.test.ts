import { characterMs, checkResponse, crc16, crcOk, encodeRequest, EXCEPTION } from '../../../src/modbus/rtu.js';
import { exceptionErrno, expectedResponseLength, GARBLED, silentIntervalMs } from '../../../src/modbus/rtu.js';
import type { ModbusRequest } from '../../../src/modbus/rtu.js';
import { Errno } from '../../../src/errno.js';
import { assert } from '../../support/assert.js';

function frame(r: ModbusRequest): number[] {
  const out = new Uint8Array(256);
  return Array.from(out.subarray(0, encodeRequest(r, out)));
}
function withCrc(...b: number[]): Uint8Array {
  const c = crc16(Uint8Array.from(b));
  return Uint8Array.from([...b, c & 0xff, c >>> 8]);
}

describe('modbus/rtu: requests and responses of every function code', () => {
  it('computes CRC-16/MODBUS as the specification example shows', () => {
    // Modbus over Serial Line, read holding registers 108..110 of unit 17.
    assert.deepEqual(
      frame({ unit: 0x11, functionCode: 3, address: 0x6b, count: 3 }),
      [0x11, 3, 0, 0x6b, 0, 3, 0x76, 0x87],
    );
    assert.ok(crcOk(Uint8Array.from([0x01, 0x04, 0, 0, 0, 1, 0x31, 0xca]), 8));
    assert.ok(!crcOk(Uint8Array.from([0x01, 0x04, 0, 0, 0, 1, 0x31, 0xcb]), 8), 'high CRC byte differs');
    assert.ok(!crcOk(Uint8Array.from([0x01, 0x04, 0, 0, 0, 1, 0x30, 0xca]), 8), 'low CRC byte differs');
    assert.ok(!crcOk(Uint8Array.from([0x01, 0x04, 0, 0, 0, 1, 0xca, 0x31]), 8), 'CRC bytes swapped');
    assert.ok(!crcOk(Uint8Array.of(0, 0, 0), 3), 'too short for an address, a function code and a CRC');
  });

  it('encodes FC 1, 2, 3, 4 reads', () => {
    for (const fc of [1, 2, 3, 4] as const) {
      const f = frame({ unit: 7, functionCode: fc, address: 0x1234, count: 10 });
      assert.deepEqual(f.slice(0, 6), [7, fc, 0x12, 0x34, 0, 10]);
      assert.equal(f.length, 8);
      assert.ok(crcOk(Uint8Array.from(f), 8));
    }
  });

  it('encodes FC 5, 6, 15, 16 writes', () => {
    assert.deepEqual(
      frame({ unit: 1, functionCode: 5, address: 0xac, count: 1, data: Uint8Array.of(0xff, 0) }).slice(0, 6),
      [1, 5, 0, 0xac, 0xff, 0],
    );
    assert.deepEqual(
      frame({ unit: 1, functionCode: 5, address: 0xac, count: 1, data: Uint8Array.of(0, 0) }).slice(0, 6),
      [1, 5, 0, 0xac, 0, 0],
    );
    assert.deepEqual(
      frame({ unit: 1, functionCode: 6, address: 1, count: 1, data: Uint8Array.of(0, 3) }).slice(0, 6),
      [1, 6, 0, 1, 0, 3],
    );
    const f15 = frame({ unit: 1, functionCode: 15, address: 0x13, count: 10, data: Uint8Array.of(0xcd, 0x01) });
    assert.deepEqual(f15.slice(0, 9), [1, 15, 0, 0x13, 0, 10, 2, 0xcd, 0x01]);
    assert.equal(f15.length, 11);
    const f16 = frame({ unit: 1, functionCode: 16, address: 1, count: 2, data: Uint8Array.of(0, 0x0a, 1, 2) });
    assert.deepEqual(f16.slice(0, 11), [1, 16, 0, 1, 0, 2, 4, 0, 0x0a, 1, 2]);
    assert.equal(f16.length, 13);
  });

  it('knows a response length from its first three bytes', () => {
    assert.equal(expectedResponseLength(Uint8Array.of(1, 3), 2), 0);
    assert.equal(expectedResponseLength(Uint8Array.of(1, 3, 6), 3), 11);
    assert.equal(expectedResponseLength(Uint8Array.of(1, 0x83, 2), 3), 5);
    assert.equal(expectedResponseLength(Uint8Array.of(1, 16, 0), 3), 8);
    assert.equal(expectedResponseLength(Uint8Array.of(1, 0x80, 0), 3), 5);
  });

  it('accepts read data, write echoes and exceptions; refuses everything else', () => {
    const sent = (r: ModbusRequest) => Uint8Array.from(frame(r));
    const read = sent({ unit: 1, functionCode: 3, address: 0, count: 2 });
    const ok = withCrc(1, 3, 4, 0x41, 0x48, 0, 0);
    assert.equal(checkResponse(read, ok, ok.length), 4);
    assert.equal(checkResponse(read, withCrc(1, 0x83, 2), 5), EXCEPTION);
    const bad = ok.slice();
    bad[3] = 0x42;
    assert.equal(checkResponse(read, bad, bad.length), GARBLED, 'bad CRC');
    assert.equal(checkResponse(read, withCrc(2, 3, 4, 0, 0, 0, 0), 9), GARBLED, 'another unit');
    assert.equal(checkResponse(read, withCrc(1, 4, 4, 0, 0, 0, 0), 9), GARBLED, 'another function');
    assert.equal(checkResponse(read, withCrc(1, 3, 2, 0, 0), 7), GARBLED, 'wrong byte count');
    assert.equal(checkResponse(read, withCrc(1, 0x84, 2), 5), GARBLED, 'exception of another function');
    const coils = sent({ unit: 1, functionCode: 1, address: 0, count: 9 });
    assert.equal(checkResponse(coils, withCrc(1, 1, 2, 0xff, 1), 7), 2);
    const write = sent({ unit: 1, functionCode: 6, address: 20, count: 1, data: Uint8Array.of(4, 0xd2) });
    assert.equal(checkResponse(write, withCrc(1, 6, 0, 20, 4, 0xd2), 8), 0);
    assert.equal(checkResponse(write, withCrc(1, 6, 0, 20, 4, 0xd3), 8), GARBLED, 'echo differs');
    const multi = sent({ unit: 1, functionCode: 16, address: 2, count: 4, data: new Uint8Array(8) });
    assert.equal(checkResponse(multi, withCrc(1, 16, 0, 2, 0, 4), 8), 0);
    assert.equal(checkResponse(multi, withCrc(1, 16, 0, 2, 0, 3), 8), GARBLED, 'quantity differs');
  });

  it('maps exception codes to error numbers', () => {
    assert.deepEqual([1, 2, 3, 4, 5, 6, 8, 10, 11, 99].map(exceptionErrno), [
      Errno.EOPNOTSUPP,
      Errno.EINVAL,
      Errno.EINVAL,
      Errno.EIO,
      Errno.EIO,
      Errno.EIO,
      Errno.EIO,
      Errno.ENODEV,
      Errno.ENODEV,
      Errno.EIO,
    ]);
  });

  it('derives the 3.5-character interval from baud rate, data bits, parity and stop bits', () => {
    const bus = { baudRate: 9600, dataBits: 8 as const, parity: 'none' as const, stopBits: 'one' as const };
    assert.near(characterMs(bus), 10 / 9.6, 1e-9);
    assert.near(silentIntervalMs(bus), 3.5 * (10 / 9.6), 1e-9);
    assert.near(characterMs({ ...bus, parity: 'even' }), 11 / 9.6, 1e-9);
    assert.near(characterMs({ ...bus, dataBits: 7, parity: 'odd', stopBits: 'two' }), 11 / 9.6, 1e-9);
    assert.equal(silentIntervalMs({ ...bus, baudRate: 115200 }), 1.75);
    assert.near(silentIntervalMs({ ...bus, baudRate: 19200, parity: 'even' }), (3.5 * 11) / 19.2, 1e-9);
  });
});
