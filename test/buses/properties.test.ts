/**
 * Property tests (fast-check): random bytes on the line and random frames never
 * throw, and a value is never reported from a frame whose CRC is bad.
 */
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { CanListener } from '../../src/can/listener.js';
import { decodeData, encodeData, isFailure } from '../../src/codec/field.js';
import type { DataType } from '../../src/config/model.js';
import { crc16, crcOk } from '../../src/modbus/rtu.js';
import { ModbusMaster, type ModbusResult } from '../../src/modbus/master.js';
import { DataTypeBits, DataTypes } from '../../src/wire.js';
import { RtuSlaveEndpoint } from '../../host-sim/modbus/link.js';
import { ModbusSlave } from '../../host-sim/modbus/slave.js';
import { FakeClock } from '../fakes/fake-clock.js';
import { FakeLogger } from '../fakes/fake-logger.js';
import { demoRegisterMap } from './support.js';

function withCrc(bytes: number[]): number[] {
  const c = crc16(Uint8Array.from(bytes));
  return [...bytes, c & 0xff, c >>> 8];
}

/** Runs one FC 3 read of `count` registers while `chunks` arrive; returns the result. */
async function readWhile(count: number, chunks: number[][]): Promise<ModbusResult> {
  const clock = new FakeClock();
  const master = new ModbusMaster({ write: () => undefined, close: () => undefined }, clock, new FakeLogger(), {
    baudRate: 9600,
    dataBits: 8,
    parity: 'none',
    stopBits: 'one',
  });
  let result: ModbusResult | undefined;
  void master.request({ unit: 1, functionCode: 3, address: 0, count }).then((r) => (result = r));
  await clock.advanceAsync(0);
  for (const c of chunks) master.onData(Uint8Array.from(c));
  await clock.advanceAsync(3000);
  assert.ok(result !== undefined, 'every request ends');
  return result;
}

const byte = fc.integer({ min: 0, max: 255 });

describe('properties: the line never breaks the master, the slave or the CAN listener', () => {
  it('random bytes never throw, and any data reported sits in a CRC-valid frame', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 4 }),
        fc.array(fc.array(byte, { maxLength: 20 }), { maxLength: 6 }),
        async (count, chunks) => {
          const result = await readWhile(count, chunks);
          if (!result.ok) return;
          const line = Uint8Array.from(chunks.flat());
          const length = 5 + 2 * count;
          assert.ok(crcOk(line, length), 'reported data came from a frame with a good CRC');
          assert.deepEqual(result.data, line.subarray(3, 3 + 2 * count));
        },
      ),
      { numRuns: 400 },
    );
  });

  it('a valid answer with any one bit flipped is never reported', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 0, max: 0xffff }), { minLength: 1, maxLength: 4 }),
        fc.nat(),
        fc.integer({ min: 0, max: 7 }),
        async (regs, at, bit) => {
          const frame = withCrc([1, 3, regs.length * 2, ...regs.flatMap((r) => [r >>> 8, r & 0xff])]);
          const i = at % frame.length;
          frame[i] = (frame[i] ?? 0) ^ (1 << bit);
          const result = await readWhile(regs.length, [frame]);
          assert.equal(result.ok, false);
        },
      ),
      { numRuns: 400 },
    );
  });

  it('the simulated slave survives random bytes and answers only CRC-valid requests', () => {
    fc.assert(
      fc.property(fc.array(fc.array(byte, { maxLength: 16 }), { maxLength: 8 }), (chunks) => {
        const clock = new FakeClock();
        const sent: Uint8Array[] = [];
        const endpoint = new RtuSlaveEndpoint(new ModbusSlave(demoRegisterMap()), clock, (b) => sent.push(b));
        for (const c of chunks) endpoint.onData(Uint8Array.from(c));
        clock.advance(100);
        for (const s of sent) assert.ok(crcOk(s, s.length));
        assert.ok(sent.length <= endpoint.counters.requests);
      }),
      { numRuns: 300 },
    );
  });

  it('random CAN frames (J1939, transport protocol included) never throw', () => {
    const frame = fc.record({
      id: fc.oneof(
        fc.integer({ min: 0, max: 0x1fffffff }),
        fc.constantFrom(0x1cecff00, 0x1cebff00, 0x18ecff11, 0x18ebff11),
      ),
      data: fc.uint8Array({ maxLength: 8 }),
    });
    fc.assert(
      fc.property(fc.array(frame, { maxLength: 40 }), (frames) => {
        const clock = new FakeClock();
        const listener = new CanListener(clock);
        const sub = listener.subscribe({ kind: 'pgn', pgn: 65226 });
        for (const f of frames) {
          listener.onFrame({ id: f.id, extended: f.id > 0x7ff, data: f.data });
          clock.advance(10);
        }
        assert.ok(sub.payload.length <= 1785);
      }),
      { numRuns: 300 },
    );
  });

  it('the decoder never throws and the encoder round-trips what it accepts', () => {
    const layout = fc.record({
      dataType: fc.constantFrom(...(DataTypes as readonly DataType[])),
      dataOrder: fc.constantFrom('bigEndian' as const, 'littleEndian' as const),
      dataOffsetBits: fc.integer({ min: 0, max: 40 }),
    });
    fc.assert(
      fc.property(layout, fc.uint8Array({ minLength: 0, maxLength: 16 }), fc.double(), (l, window, value) => {
        const full = { ...l, dataSizeBits: DataTypeBits[l.dataType] };
        decodeData(window, full);
        const target = new Uint8Array(16);
        const v = l.dataType === 'bool' ? value > 0 : value;
        if (encodeData(v, full, target) !== undefined) return;
        const back = decodeData(target, full);
        assert.ok(!isFailure(back));
        if (l.dataType.startsWith('float') || l.dataType === 'siemensTotalType' || l.dataType === 'bool') {
          if (l.dataType !== 'float32') assert.equal(back, v);
        } else {
          assert.equal(Number(back), Math.round(value) + 0);
        }
      }),
      { numRuns: 1000 },
    );
  });
});
