import type { ModbusChannel } from '../../../src/config/model.js';
import type { ModbusRequest } from '../../../src/modbus/frames.js';
import type { ModbusResult } from '../../../src/modbus/master.js';
import { decodePoint, planReads, pointOf } from '../../../src/modbus/scan.js';
import { writePoint } from '../../../src/modbus/write.js';
import { Errno } from '../../../src/errno.js';
import { assert } from '../../support/assert.js';

function channel(over: Partial<ModbusChannel>): ModbusChannel {
  return {
    uid: 'u',
    key: 'k',
    name: 'k',
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
    visible: true,
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
      return Promise.resolve(answers.shift() ?? { ok: true, data: new Uint8Array(0) });
    },
  };
}

describe('modbus/scan: as few requests as contiguous registers allow', () => {
  it('merges touching and overlapping points of one unit and function, never across gaps', () => {
    const d = (over: Partial<ModbusChannel>) => ({ point: pointOf(channel(over)) });
    const plan = planReads([
      d({ registerAddress: 2, dataType: 'float64', dataSizeBits: 64 }),
      d({ registerAddress: 0, dataType: 'float32', dataSizeBits: 32 }),
      d({ registerAddress: 3 }),
      d({ registerAddress: 20 }),
      d({ registerAddress: 0, registerType: 'inputRegister' }),
      d({ registerAddress: 0, deviceAddress: 2 }),
      d({ registerAddress: 0, registerType: 'coil', dataType: 'bool', dataSizeBits: 1 }),
      d({ registerAddress: 1, registerType: 'coil', dataType: 'bool', dataSizeBits: 1 }),
    ]);
    assert.deepEqual(
      plan.map((p) => [p.unit, p.functionCode, p.address, p.count, p.members.length]),
      [
        [1, 1, 0, 2, 2],
        [1, 3, 0, 6, 3],
        [1, 3, 20, 1, 1],
        [1, 4, 0, 1, 1],
        [2, 3, 0, 1, 1],
      ],
    );
  });

  it('splits at the function code quantity limit and rejects a point beyond it', () => {
    const demands = Array.from({ length: 130 }, (_, i) => ({ point: pointOf(channel({ registerAddress: i })) }));
    assert.deepEqual(
      planReads(demands).map((p) => p.count),
      [125, 5],
    );
    assert.throws(() => pointOf(channel({ dataOffsetBits: 125 * 16 })), 'config.invalid');
  });
});

describe('modbus/scan decodePoint and write: fields inside registers and coils', () => {
  it('decodes coil fields, first coil most significant for bigEndian', () => {
    const c = channel({ registerType: 'coil', dataType: 'uint8', dataSizeBits: 4, registerAddress: 3 });
    const data = Uint8Array.of(0b0010_1000); // read from address 0: coils 3 and 5 set
    assert.equal(decodePoint(c, pointOf(c), 0, data), 0b1010);
    const le = { ...c, dataOrder: 'littleEndian' as const };
    assert.equal(decodePoint(le, pointOf(le), 0, data), 0b0101);
  });

  it('writes a field inside a register by reading it first (FC 3, then FC 6)', async () => {
    const c = channel({ dataType: 'uint8', dataOffsetBits: 4, dataSizeBits: 8, registerAddress: 7 });
    const s = sink([{ ok: true, data: Uint8Array.of(0xab, 0xcd) }]);
    assert.equal((await writePoint(s, c, pointOf(c), 0x12)).ok, true);
    assert.deepEqual(s.requests, [
      { unit: 1, functionCode: 3, address: 7, count: 1 },
      { unit: 1, functionCode: 6, address: 7, count: 1, data: Uint8Array.of(0xa1, 0x2d) },
    ]);
  });

  it('writes whole registers directly (FC 16) and coils with FC 5 or FC 15', async () => {
    const c = channel({ dataType: 'uint32', dataSizeBits: 32, dataOffsetBits: 16, registerAddress: 10 });
    const s = sink([]);
    await writePoint(s, c, pointOf(c), 0x01020304);
    assert.deepEqual(s.requests, [
      { unit: 1, functionCode: 16, address: 11, count: 2, data: Uint8Array.of(1, 2, 3, 4) },
    ]);
    const coil = channel({ registerType: 'coil', dataType: 'bool', dataSizeBits: 1, registerAddress: 4 });
    const field = channel({ registerType: 'coil', dataType: 'uint8', dataSizeBits: 4, registerAddress: 4 });
    const t = sink([]);
    await writePoint(t, coil, pointOf(coil), true);
    await writePoint(t, field, pointOf(field), 0b1100);
    assert.deepEqual(t.requests, [
      { unit: 1, functionCode: 5, address: 4, count: 1, data: Uint8Array.of(1) },
      { unit: 1, functionCode: 15, address: 4, count: 4, data: Uint8Array.of(0b0011) },
    ]);
  });

  it('refuses values out of range before anything goes on the line', async () => {
    const c = channel({});
    const s = sink([]);
    const r = await writePoint(s, c, pointOf(c), 65536);
    assert.deepEqual(r.ok ? 0 : r.errno, Errno.ERANGE);
    assert.equal(s.requests.length, 0);
  });
});
