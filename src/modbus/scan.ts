/**
 * Read scheduling of one Modbus bus: where a channel's data lives (its point),
 * how the points due at one moment are read in as few requests as contiguous
 * registers allow, and the scanner that gathers them (docs/buses.md).
 *
 * The agent's scheduler calls each channel's `sample()` at its scan interval;
 * a sample asks the scanner for the channel's point. Demands that arrive in the
 * same tick of the Clock are gathered by a zero-delay Clock timer and planned
 * together, so channels due together share requests and no channel is read
 * more often than its own scan interval asks. A channel whose previous read has
 * not ended joins it instead of queueing another.
 *
 * Planning: points of one unit and register type whose ranges touch or overlap
 * are merged into one read, up to the function code's quantity limit. Registers
 * between two points are never read to bridge a gap: a device may answer an
 * address it does not have with exception 02, which would fail both channels.
 */
import { decodeData, type Decoded } from '../codec/data.js';
import type { ModbusChannel } from '../config/model.js';
import { AgentError } from '../errors.js';
import type { Clock } from '../ports.js';
import { MaxQuantity, type FunctionCode, type ModbusRequest } from './frames.js';
import type { ModbusResult } from './master.js';

/** The read of one channel: `count` coils or registers from `address` of `unit`. */
export interface ModbusPoint {
  unit: number;
  readFunction: 1 | 2 | 3 | 4;
  address: number;
  count: number;
  /** Coils and discrete inputs: one bit per address. */
  bits: boolean;
}

const readFunctionOf = { coil: 1, discreteInput: 2, holdingRegister: 3, inputRegister: 4 } as const;

/** The point of a channel; throws AgentError `config.invalid` when it cannot be read in one request. */
export function pointOf(channel: ModbusChannel): ModbusPoint {
  const readFunction = readFunctionOf[channel.registerType];
  const bits = readFunction <= 2;
  const endBits = channel.dataOffsetBits + channel.dataSizeBits;
  const count = bits ? endBits : Math.ceil(endBits / 16);
  if (count > MaxQuantity[readFunction] || channel.registerAddress + count > 65536) {
    throw new AgentError('config.invalid', `modbus channel ${channel.key}: dataOffset + dataSize exceed one request`);
  }
  return { unit: channel.deviceAddress, readFunction, address: channel.registerAddress, count, bits };
}

/**
 * The channel's raw value from the data of a read that began at `readAddress`:
 * registers are a byte window (16 bits per address), coils and discrete inputs
 * a packed bit window (src/codec/bits.ts).
 */
export function decodePoint(
  channel: ModbusChannel,
  point: ModbusPoint,
  readAddress: number,
  data: Uint8Array,
): Decoded {
  return decodeData(data, channel, (point.address - readAddress) * (point.bits ? 1 : 16), point.bits);
}

/** One request of a plan and the demands it serves. */
export interface PlannedRead<T> {
  unit: number;
  functionCode: FunctionCode;
  address: number;
  count: number;
  members: T[];
}

/** Merges the points of `demands` into as few reads as contiguity and quantity limits allow. */
export function planReads<T extends { point: ModbusPoint }>(demands: readonly T[]): PlannedRead<T>[] {
  const sorted = demands
    .slice()
    .sort(({ point: a }, { point: b }) => a.unit - b.unit || a.readFunction - b.readFunction || a.address - b.address);
  const plan: PlannedRead<T>[] = [];
  let current: PlannedRead<T> | undefined;
  for (const d of sorted) {
    const p = d.point;
    const end = current === undefined ? 0 : Math.max(current.address + current.count, p.address + p.count);
    if (
      current !== undefined &&
      current.unit === p.unit &&
      current.functionCode === p.readFunction &&
      p.address <= current.address + current.count &&
      end - current.address <= MaxQuantity[p.readFunction]
    ) {
      current.count = end - current.address;
      current.members.push(d);
    } else {
      current = { unit: p.unit, functionCode: p.readFunction, address: p.address, count: p.count, members: [d] };
      plan.push(current);
    }
  }
  return plan;
}

/** What a demand receives: the read's result and where the read began. */
export interface PointRead {
  result: ModbusResult;
  readAddress: number;
}

interface Demand {
  point: ModbusPoint;
  resolve: (read: PointRead) => void;
}

/** The part of the master the scanner and the writer use. */
export interface RequestSink {
  request(request: ModbusRequest): Promise<ModbusResult>;
}

export class ModbusScanner {
  private gathering: Demand[] = [];
  private readonly inFlight = new Map<ModbusPoint, Promise<PointRead>>();

  constructor(
    /** The bus's master, which writes go to directly. */
    readonly master: RequestSink,
    private readonly clock: Clock,
  ) {}

  /** Reads `point` soon, together with whatever else is due now. */
  read(point: ModbusPoint): Promise<PointRead> {
    const running = this.inFlight.get(point);
    if (running !== undefined) return running;
    const promise = new Promise<PointRead>((resolve) => {
      if (this.gathering.push({ point, resolve }) === 1) this.clock.setTimer(() => this.flush(), 0);
    });
    this.inFlight.set(point, promise);
    void promise.then(() => this.inFlight.delete(point));
    return promise;
  }

  private flush(): void {
    const demands = this.gathering;
    this.gathering = [];
    for (const read of planReads(demands)) {
      const { unit, functionCode, address, count, members } = read;
      void this.master.request({ unit, functionCode, address, count }).then((result) => {
        for (const d of members) d.resolve({ result, readAddress: address });
      });
    }
  }
}
