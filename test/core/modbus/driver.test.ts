import type { ModbusChannel } from '../../../src/config/model.js';
import { ModbusChannelDriver } from '../../../src/modbus/driver.js';
import type { ModbusResult } from '../../../src/modbus/master.js';
import type { ModbusRequest } from '../../../src/modbus/rtu.js';
import { Errno } from '../../../src/errno.js';
import { FakeLogger } from '../../fakes/fake-logger.js';
import { assert } from '../../support/assert.js';

function channel(over: Partial<ModbusChannel>): ModbusChannel {
  return {
    key: 'k',
    type: 'modbus',
    bus: 'b',
    deviceAddress: 1,
    registerType: 'holdingRegister',
    registerAddress: 0,
    readOnly: false,
    dataType: 'uint16',
    dataOrder: 'bigEndian',
    dataOffsetBits: 0,
    dataSizeBits: 16,
    scaleGain: 1,
    scaleOffset: 0,
    scanIntervalMs: 1000,
    transmitEvents: [],
    ...over,
  };
}

/** A request sink that records requests and answers from a queue. */
function sink(answers: ModbusResult[]) {
  const requests: ModbusRequest[] = [];
  return {
    requests,
    request(r: ModbusRequest): Promise<ModbusResult> {
      requests.push({ ...r, ...(r.data === undefined ? {} : { data: r.data.slice() }) });
      return Promise.resolve(answers.shift() ?? { ok: true, data: new Uint8Array(0), address: r.address });
    },
  };
}

const driver = (c: ModbusChannel, bus: ReturnType<typeof sink>) => new ModbusChannelDriver(c, bus, new FakeLogger());

describe('modbus/driver: the channel read, fields inside registers and coils, writes', () => {
  it('reads the coils or registers its field covers, and refuses a field beyond one request', async () => {
    const s = sink([]);
    void driver(channel({ registerAddress: 7, dataType: 'float64', dataSizeBits: 64 }), s).sample();
    void driver(channel({ registerType: 'coil', dataType: 'uint8', dataOffsetBits: 3, dataSizeBits: 5 }), s).sample();
    void driver(channel({ registerType: 'inputRegister', dataOffsetBits: 4, dataSizeBits: 16 }), s).sample();
    await Promise.resolve();
    assert.deepEqual(s.requests, [
      { unit: 1, functionCode: 3, address: 7, count: 4 },
      { unit: 1, functionCode: 1, address: 0, count: 8 },
      { unit: 1, functionCode: 4, address: 0, count: 2 },
    ]);
    assert.throws(() => driver(channel({ dataOffsetBits: 125 * 16 }), s), 'config.invalid');
    assert.throws(() => driver(channel({ registerAddress: 65535, dataSizeBits: 32, dataType: 'uint32' }), s));
  });

  it('decodes its field from a read that began before it (a joined read)', async () => {
    const c = channel({ registerType: 'coil', dataType: 'uint8', dataSizeBits: 4, registerAddress: 3 });
    const data = Uint8Array.of(0b0010_1000); // read from address 0: coils 3 and 5 set
    assert.deepEqual(await driver(c, sink([{ ok: true, data, address: 0 }])).sample(), { ok: true, value: 0b1010 });
    const le = { ...c, dataOrder: 'littleEndian' as const };
    assert.deepEqual(await driver(le, sink([{ ok: true, data, address: 0 }])).sample(), { ok: true, value: 0b0101 });
    const r = channel({ registerAddress: 5 });
    const regs = Uint8Array.of(0, 1, 0, 2, 0, 3);
    assert.deepEqual(await driver(r, sink([{ ok: true, data: regs, address: 3 }])).sample(), { ok: true, value: 3 });
    const failed = { ok: false as const, errno: Errno.ETIMEDOUT, reason: 'unit 1: no answer' };
    assert.deepEqual(await driver(r, sink([failed])).sample(), { ok: false, errno: Errno.ETIMEDOUT });
  });

  it('writes a field inside a register by reading it first (FC 3, then FC 6), then reads back', async () => {
    const c = channel({ dataType: 'uint8', dataOffsetBits: 4, dataSizeBits: 8, registerAddress: 7 });
    const s = sink([
      { ok: true, data: Uint8Array.of(0xab, 0xcd), address: 7 },
      { ok: true, data: new Uint8Array(0), address: 7 },
      { ok: true, data: Uint8Array.of(0xa1, 0x2d), address: 7 },
    ]);
    assert.deepEqual(await driver(c, s).applyDesired(0x12), { ok: true, value: 0x12 });
    assert.deepEqual(s.requests, [
      { unit: 1, functionCode: 3, address: 7, count: 1 },
      { unit: 1, functionCode: 6, address: 7, count: 1, data: Uint8Array.of(0xa1, 0x2d) },
      { unit: 1, functionCode: 3, address: 7, count: 1 },
    ]);
  });

  it('writes only the registers a field touches, whole registers directly (FC 16)', async () => {
    const c = channel({ dataType: 'uint32', dataSizeBits: 32, dataOffsetBits: 16, registerAddress: 10 });
    const s = sink([]);
    await driver(c, s).applyDesired(0x01020304);
    assert.deepEqual(s.requests[0], {
      unit: 1,
      functionCode: 16,
      address: 11,
      count: 2,
      data: Uint8Array.of(1, 2, 3, 4),
    });
    const inner = channel({ dataType: 'uint16', dataOffsetBits: 40, dataSizeBits: 16, registerAddress: 10 });
    const t = sink([{ ok: true, data: Uint8Array.of(0, 0, 0, 0, 0, 0, 0xaa, 0xbb, 0xcc, 0xdd), address: 9 }]);
    await driver(inner, t).applyDesired(0x1234);
    assert.deepEqual(t.requests.slice(0, 2), [
      { unit: 1, functionCode: 3, address: 12, count: 2 },
      { unit: 1, functionCode: 16, address: 12, count: 2, data: Uint8Array.of(0xaa, 0x12, 0x34, 0xdd) },
    ]);
  });

  it('writes coils with FC 5 (0xFF00 / 0x0000) or FC 15', async () => {
    const coil = channel({ registerType: 'coil', dataType: 'bool', dataSizeBits: 1, registerAddress: 4 });
    const field = channel({ registerType: 'coil', dataType: 'uint8', dataSizeBits: 4, registerAddress: 4 });
    const t = sink([]);
    await driver(coil, t).applyDesired(true);
    await driver(coil, t).applyDesired(false);
    await driver(field, t).applyDesired(0b1100);
    assert.deepEqual(
      t.requests.filter((r) => r.functionCode > 4),
      [
        { unit: 1, functionCode: 5, address: 4, count: 1, data: Uint8Array.of(0xff, 0) },
        { unit: 1, functionCode: 5, address: 4, count: 1, data: Uint8Array.of(0, 0) },
        { unit: 1, functionCode: 15, address: 4, count: 4, data: Uint8Array.of(0b0011) },
      ],
    );
  });

  it('refuses values out of range before anything goes on the line, and read-only channels', async () => {
    const s = sink([]);
    assert.deepEqual(await driver(channel({}), s).applyDesired(65536), { ok: false, errno: Errno.ERANGE });
    assert.deepEqual(await driver(channel({ readOnly: true }), s).applyDesired(1), { ok: false, errno: Errno.EROFS });
    const input = channel({ registerType: 'inputRegister' });
    assert.deepEqual(await driver(input, s).applyDesired(1), { ok: false, errno: Errno.EROFS });
    const discrete = channel({ registerType: 'discreteInput', dataType: 'bool', readOnly: false });
    assert.deepEqual(await driver(discrete, s).applyDesired(1), { ok: false, errno: Errno.EROFS });
    assert.equal(s.requests.length, 0);
    const noBus = new ModbusChannelDriver(channel({}), Errno.ENODEV, new FakeLogger());
    assert.deepEqual(noBus.sample(), { ok: false, errno: Errno.ENODEV });
    assert.deepEqual(await noBus.applyDesired(1), { ok: false, errno: Errno.ENODEV });
  });
});
