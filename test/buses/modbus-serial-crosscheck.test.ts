/**
 * Byte-exact agreement with modbus-serial, an independent implementation (used in
 * tests only): its client's request frames equal our master's; its server
 * handlers' response frames (RTU-framed with its own CRC) equal our simulated
 * slave's; and its client parses our slave's answers to the same values.
 */
import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { createRequire } from 'node:module';
import { encodeRequest, type ModbusRequest } from '../../src/modbus/rtu.js';
import { parseRegisterMap } from '../../host-sim/modbus/register-map.js';
import { ModbusSlave } from '../../host-sim/modbus/slave.js';

const require = createRequire(import.meta.url);
type Callback = (err: Error | null, res?: { data?: unknown; state?: boolean; value?: number }) => void;
interface Client {
  open(cb: (err: Error | null) => void): void;
  writeFC1(unit: number, a: number, n: number, cb: Callback): void;
  writeFC2(unit: number, a: number, n: number, cb: Callback): void;
  writeFC3(unit: number, a: number, n: number, cb: Callback): void;
  writeFC4(unit: number, a: number, n: number, cb: Callback): void;
  writeFC5(unit: number, a: number, state: boolean, cb: Callback): void;
  writeFC6(unit: number, a: number, value: number, cb: Callback): void;
  writeFC15(unit: number, a: number, values: boolean[], cb: Callback): void;
  writeFC16(unit: number, a: number, values: number[], cb: Callback): void;
}
type Handler = (
  req: Buffer,
  vector: object,
  unit: number,
  cb: (err: unknown, res?: Buffer) => void,
  fc?: number,
) => void;
const ModbusRTU = require('modbus-serial') as new (port: object) => Client;
const handlers = require('modbus-serial/servers/servertcp_handler.js') as Record<string, Handler>;
const crc16 = require('modbus-serial/utils/crc16.js') as (b: Buffer) => number;

/** A port for modbus-serial's client that records each request and answers from a function. */
class CapturePort extends EventEmitter {
  readonly written: Buffer[] = [];
  answer: (req: Buffer) => Uint8Array | undefined = () => undefined;
  get isOpen(): boolean {
    return true;
  }
  open(cb: (err: Error | null) => void): void {
    cb(null);
  }
  close(cb?: (err: Error | null) => void): void {
    cb?.(null);
  }
  write(buf: Buffer): void {
    this.written.push(Buffer.from(buf));
    const res = this.answer(buf);
    if (res !== undefined) queueMicrotask(() => this.emit('data', Buffer.from(res)));
  }
}

const mapJson = {
  devices: [
    {
      unit: 1,
      coils: Array.from({ length: 16 }, (_, i) => ({ address: i, value: i % 3 === 0 })),
      discreteInputs: Array.from({ length: 40 }, (_, i) => ({ address: 0x13 + i, value: i % 2 === 1 })),
      holdingRegisters: Array.from({ length: 24 }, (_, i) => ({ address: i, value: (i * 4099) & 0xffff })),
      inputRegisters: [{ address: 10, type: 'int16', value: -1234 }],
    },
  ],
};

/** modbus-serial's server handlers over a copy of the same tables, framed as its ServerSerial frames them. */
function theirResponse(slave: ModbusSlave, req: Buffer): Buffer | undefined {
  const d = slave.device(1);
  const illegal = (): never => {
    throw Object.assign(new Error('illegal address'), { modbusErrorCode: 2 });
  };
  const get = <T>(m: Map<number, T>, a: number): T => (m.has(a) ? (m.get(a) as T) : illegal());
  const vector = {
    getCoil: (a: number) => get(d.coils, a),
    getDiscreteInput: (a: number) => get(d.discreteInputs, a),
    getHoldingRegister: (a: number) => get(d.holdingRegisters, a),
    getInputRegister: (a: number) => get(d.inputRegisters, a),
    setCoil: (a: number, v: boolean) => (d.coils.has(a) ? d.coils.set(a, v) && undefined : illegal()),
    setRegister: (a: number, v: number) =>
      d.holdingRegisters.has(a) ? d.holdingRegisters.set(a, v) && undefined : illegal(),
  };
  const fc = req[1] ?? 0;
  const name = {
    1: 'readCoilsOrInputDiscretes',
    2: 'readCoilsOrInputDiscretes',
    3: 'readMultipleRegisters',
    4: 'readInputRegisters',
    5: 'writeCoil',
    6: 'writeSingleRegister',
    15: 'forceMultipleCoils',
    16: 'writeMultipleRegisters',
  }[fc];
  let out: Buffer | undefined;
  handlers[name ?? '']?.(
    req,
    vector,
    1,
    (err, res) => {
      let frame = res;
      let code = fc;
      if (err) {
        code = fc | 0x80;
        frame = Buffer.alloc(5);
        frame.writeUInt8((err as { modbusErrorCode?: number }).modbusErrorCode ?? 4, 2);
      }
      if (frame === undefined) return;
      frame.writeUInt8(1, 0);
      frame.writeUInt8(code, 1);
      frame.writeUInt16LE(crc16(frame.subarray(0, -2)), frame.length - 2);
      out = frame;
    },
    fc,
  );
  return out;
}

function ours(r: ModbusRequest): Buffer {
  const out = new Uint8Array(256);
  return Buffer.from(out.subarray(0, encodeRequest(r, out)));
}

const cases: { name: string; ours: ModbusRequest; theirs: (c: Client, cb: Callback) => void }[] = [
  {
    name: 'FC 1',
    ours: { unit: 1, functionCode: 1, address: 0, count: 10 },
    theirs: (c, cb) => c.writeFC1(1, 0, 10, cb),
  },
  {
    name: 'FC 2',
    ours: { unit: 1, functionCode: 2, address: 0x13, count: 37 },
    theirs: (c, cb) => c.writeFC2(1, 0x13, 37, cb),
  },
  {
    name: 'FC 3',
    ours: { unit: 1, functionCode: 3, address: 2, count: 6 },
    theirs: (c, cb) => c.writeFC3(1, 2, 6, cb),
  },
  {
    name: 'FC 4',
    ours: { unit: 1, functionCode: 4, address: 10, count: 1 },
    theirs: (c, cb) => c.writeFC4(1, 10, 1, cb),
  },
  {
    name: 'FC 5 on',
    ours: { unit: 1, functionCode: 5, address: 3, count: 1, data: Uint8Array.of(0xff, 0) },
    theirs: (c, cb) => c.writeFC5(1, 3, true, cb),
  },
  {
    name: 'FC 5 off',
    ours: { unit: 1, functionCode: 5, address: 0, count: 1, data: Uint8Array.of(0, 0) },
    theirs: (c, cb) => c.writeFC5(1, 0, false, cb),
  },
  {
    name: 'FC 6',
    ours: { unit: 1, functionCode: 6, address: 20, count: 1, data: Uint8Array.of(0x04, 0xd2) },
    theirs: (c, cb) => c.writeFC6(1, 20, 1234, cb),
  },
  {
    name: 'FC 15',
    ours: { unit: 1, functionCode: 15, address: 1, count: 10, data: Uint8Array.of(0b11001101, 0b01) },
    theirs: (c, cb) => c.writeFC15(1, 1, [true, false, true, true, false, false, true, true, true, false], cb),
  },
  {
    name: 'FC 16',
    ours: { unit: 1, functionCode: 16, address: 0, count: 3, data: Uint8Array.of(0x41, 0x48, 0, 0, 0xff, 0xfe) },
    theirs: (c, cb) => c.writeFC16(1, 0, [0x4148, 0, 0xfffe], cb),
  },
  {
    name: 'FC 3 illegal address',
    ours: { unit: 1, functionCode: 3, address: 100, count: 2 },
    theirs: (c, cb) => c.writeFC3(1, 100, 2, cb),
  },
  {
    name: 'FC 6 illegal address',
    ours: { unit: 1, functionCode: 6, address: 99, count: 1, data: Uint8Array.of(0, 1) },
    theirs: (c, cb) => c.writeFC6(1, 99, 1, cb),
  },
];

describe('modbus frames agree byte for byte with modbus-serial', () => {
  for (const c of cases) {
    it(`${c.name}: request, response, and parsing of our response`, async () => {
      const port = new CapturePort();
      const ourSlave = new ModbusSlave(parseRegisterMap(mapJson));
      const theirSlave = new ModbusSlave(parseRegisterMap(mapJson));
      port.answer = (req) => ourSlave.respond(Uint8Array.from(req));
      const client = new ModbusRTU(port);
      await new Promise<void>((resolve, reject) => client.open((e) => (e ? reject(e) : resolve())));
      const outcome = await new Promise<{ err: Error | null; res: unknown }>((resolve) =>
        c.theirs(client, (err, res) => resolve({ err, res })),
      );
      const request = port.written[0];
      assert.ok(request);
      assert.deepEqual(request, ours(c.ours), 'request frame');
      const mine = Buffer.from(new ModbusSlave(parseRegisterMap(mapJson)).respond(Uint8Array.from(request)) ?? []);
      assert.deepEqual(mine, theirResponse(theirSlave, request), 'response frame');
      if (c.name.includes('illegal')) {
        assert.match(String(outcome.err?.message), /Illegal data address/i);
      } else {
        assert.equal(outcome.err, null);
        assert.ok(outcome.res !== undefined);
      }
    });
  }

  it('modbus-serial reads the values our slave holds', async () => {
    const port = new CapturePort();
    const slave = new ModbusSlave(parseRegisterMap(mapJson));
    port.answer = (req) => slave.respond(Uint8Array.from(req));
    const client = new ModbusRTU(port);
    await new Promise<void>((resolve) => client.open(() => resolve()));
    const regs = await new Promise<unknown>((resolve) => client.writeFC3(1, 0, 4, (_e, r) => resolve(r?.data)));
    assert.deepEqual(regs, [0, 4099, 8198, 12297]);
    const input = await new Promise<unknown>((resolve) => client.writeFC4(1, 10, 1, (_e, r) => resolve(r?.data)));
    assert.deepEqual(input, [0x10000 - 1234]);
    const coils = await new Promise<unknown>((resolve) => client.writeFC1(1, 0, 4, (_e, r) => resolve(r?.data)));
    assert.deepEqual((coils as boolean[]).slice(0, 4), [true, false, false, true]);
  });
});
