/**
 * The protocol side of the simulated Modbus RTU slave: one request frame in,
 * the response frame out (Modbus Application Protocol V1.1b3, sections 6 and
 * 7), over the register map of each simulated unit. Units not in the map do not
 * answer. Addresses not in a unit's tables answer exception 02; a write value
 * other than 0xFF00 / 0x0000 for FC 5, or a bad quantity, answers exception 03;
 * unsupported function codes answer exception 01.
 */
import { appendCrc, crcOk } from '../../src/modbus/rtu.js';
import type { DeviceTables, RegisterMap } from './register-map.js';

const u16 = (b: Uint8Array, i: number): number => ((b[i] ?? 0) << 8) | (b[i + 1] ?? 0);

export class ModbusSlave {
  constructor(readonly map: RegisterMap) {}

  /** The tables of `unit` (tests read and change them). */
  device(unit: number): DeviceTables {
    const d = this.map.devices.get(unit);
    if (d === undefined) throw new Error(`no simulated unit ${unit}`);
    return d;
  }

  /** The answer to a complete request frame, or undefined (bad CRC, unknown unit). */
  respond(frame: Uint8Array): Uint8Array | undefined {
    if (!crcOk(frame, frame.length)) return undefined;
    const unit = frame[0] ?? 0;
    const device = this.map.devices.get(unit);
    if (device === undefined) return undefined;
    const fc = frame[1] ?? 0;
    const body = this.execute(device, fc, frame);
    const out = new Uint8Array(typeof body === 'number' ? 5 : body.length + 4);
    out[0] = unit;
    if (typeof body === 'number') {
      out[1] = fc | 0x80;
      out[2] = body;
      appendCrc(out, 3);
      return out;
    }
    out[1] = fc;
    out.set(body, 2);
    appendCrc(out, body.length + 2);
    return out;
  }

  /** The response PDU after the function code, or an exception code. */
  private execute(d: DeviceTables, fc: number, f: Uint8Array): Uint8Array | number {
    const address = u16(f, 2);
    const count = u16(f, 4);
    switch (fc) {
      case 1:
      case 2:
        return readBits(fc === 1 ? d.coils : d.discreteInputs, address, count);
      case 3:
      case 4:
        return readRegisters(fc === 3 ? d.holdingRegisters : d.inputRegisters, address, count);
      case 5: {
        if (count !== 0xff00 && count !== 0) return 3;
        if (!d.coils.has(address)) return 2;
        d.coils.set(address, count === 0xff00);
        return f.slice(2, 6);
      }
      case 6:
        if (!d.holdingRegisters.has(address)) return 2;
        d.holdingRegisters.set(address, count);
        return f.slice(2, 6);
      case 15: {
        if (count < 1 || count > 1968 || f[6] !== Math.ceil(count / 8)) return 3;
        for (let i = 0; i < count; i++) if (!d.coils.has(address + i)) return 2;
        for (let i = 0; i < count; i++) d.coils.set(address + i, (((f[7 + (i >> 3)] ?? 0) >> (i & 7)) & 1) === 1);
        return f.slice(2, 6);
      }
      case 16: {
        if (count < 1 || count > 123 || f[6] !== count * 2) return 3;
        for (let i = 0; i < count; i++) if (!d.holdingRegisters.has(address + i)) return 2;
        for (let i = 0; i < count; i++) d.holdingRegisters.set(address + i, u16(f, 7 + 2 * i));
        return f.slice(2, 6);
      }
      default:
        return 1;
    }
  }
}

function readBits(table: Map<number, boolean>, address: number, count: number): Uint8Array | number {
  if (count < 1 || count > 2000) return 3;
  const n = Math.ceil(count / 8);
  const out = new Uint8Array(1 + n);
  out[0] = n;
  for (let i = 0; i < count; i++) {
    const v = table.get(address + i);
    if (v === undefined) return 2;
    if (v) out[1 + (i >> 3)] = (out[1 + (i >> 3)] ?? 0) | (1 << (i & 7));
  }
  return out;
}

function readRegisters(table: Map<number, number>, address: number, count: number): Uint8Array | number {
  if (count < 1 || count > 125) return 3;
  const out = new Uint8Array(1 + 2 * count);
  out[0] = 2 * count;
  for (let i = 0; i < count; i++) {
    const v = table.get(address + i);
    if (v === undefined) return 2;
    out[1 + 2 * i] = v >>> 8;
    out[2 + 2 * i] = v & 0xff;
  }
  return out;
}
