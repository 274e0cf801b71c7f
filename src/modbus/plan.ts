/**
 * Where a Modbus channel's data lives, and how the channels due in one scan are
 * read in as few requests as contiguous registers allow (docs/buses.md): points of one
 * unit and register type whose ranges touch or overlap are merged into one
 * read, up to the function code's quantity limit. Registers between two points
 * are never read to bridge a gap: a device may answer an address it does not
 * have with exception 02, which would fail both channels.
 */
import type { ModbusChannel } from '../config/model.js';
import { AgentError } from '../errors.js';
import { MaxQuantity, type FunctionCode } from './frames.js';

export type ReadFunction = 1 | 2 | 3 | 4;

/** The read of one channel: `count` coils or registers from `address` of `unit`. */
export interface ModbusPoint {
  unit: number;
  readFunction: ReadFunction;
  address: number;
  count: number;
  /** Coils and discrete inputs: one bit per address. */
  bits: boolean;
}

const readFunctionOf: Readonly<Record<ModbusChannel['registerType'], ReadFunction>> = {
  coil: 1,
  discreteInput: 2,
  holdingRegister: 3,
  inputRegister: 4,
};

/** The point of a channel; throws AgentError `config.invalid` when it cannot be read in one request. */
export function pointOf(channel: ModbusChannel): ModbusPoint {
  const readFunction = readFunctionOf[channel.registerType];
  const bits = readFunction === 1 || readFunction === 2;
  const endBits = channel.dataOffsetBits + channel.dataSizeBits;
  const count = bits ? endBits : Math.ceil(endBits / 16);
  if (count > MaxQuantity[readFunction] || channel.registerAddress + count > 65536) {
    throw new AgentError('config.invalid', `modbus channel ${channel.key}: dataOffset + dataSize exceed one request`);
  }
  return { unit: channel.deviceAddress, readFunction, address: channel.registerAddress, count, bits };
}

/** One request of a plan and the demands it serves. */
export interface PlannedRead<T> {
  unit: number;
  functionCode: FunctionCode;
  address: number;
  count: number;
  members: T[];
}

function compare(a: ModbusPoint, b: ModbusPoint): number {
  return a.unit - b.unit || a.readFunction - b.readFunction || a.address - b.address || a.count - b.count;
}

/** Merges the points of `demands` into as few reads as contiguity and quantity limits allow. */
export function planReads<T extends { point: ModbusPoint }>(demands: readonly T[]): PlannedRead<T>[] {
  const sorted = demands.slice().sort((a, b) => compare(a.point, b.point));
  const plan: PlannedRead<T>[] = [];
  let current: PlannedRead<T> | undefined;
  for (const d of sorted) {
    const p = d.point;
    if (
      current !== undefined &&
      current.unit === p.unit &&
      current.functionCode === p.readFunction &&
      p.address <= current.address + current.count &&
      Math.max(current.address + current.count, p.address + p.count) - current.address <= MaxQuantity[p.readFunction]
    ) {
      current.count = Math.max(current.address + current.count, p.address + p.count) - current.address;
      current.members.push(d);
      continue;
    }
    current = { unit: p.unit, functionCode: p.readFunction, address: p.address, count: p.count, members: [d] };
    plan.push(current);
  }
  return plan;
}
