/**
 * Writing a desired value to a coil or holding-register channel (function codes
 * 5, 6, 15, 16). A field that covers whole registers (offset and size multiples
 * of 16 bits) is written directly; a field inside registers is read first (FC 3)
 * and the registers are written back with only the field's bits changed. Coil
 * fields write `dataSize` coils from `registerAddress + dataOffset`.
 */
import type { Value } from '../agent/driver.js';
import { encodeData } from '../codec/encode.js';
import type { CodecFailure } from '../codec/data.js';
import type { ModbusChannel } from '../config/model.js';
import type { ModbusRequest } from './frames.js';
import type { ModbusResult } from './master.js';
import type { ModbusPoint, RequestSink } from './scan.js';

/** The end of a write: done, or a refused value or failed transaction (errno and reason). */
export type WriteResult = ModbusResult;

/** Writes the raw value (after inverse scaling) of `channel`. */
export async function writePoint(
  master: RequestSink,
  channel: ModbusChannel,
  point: ModbusPoint,
  raw: Value,
): Promise<WriteResult> {
  if (channel.registerType === 'coil') return writeCoils(master, channel, raw);
  const unit = channel.deviceAddress;
  const aligned = channel.dataOffsetBits % 16 === 0 && channel.dataSizeBits % 16 === 0;
  let address = point.address;
  let window: Uint8Array;
  let layout: ModbusChannel = channel;
  if (aligned) {
    address = point.address + channel.dataOffsetBits / 16;
    window = new Uint8Array(channel.dataSizeBits / 8);
    layout = { ...channel, dataOffsetBits: 0 };
  } else {
    const read = await master.request({ unit, functionCode: 3, address, count: point.count });
    if (!read.ok) return read;
    window = read.data;
  }
  const failure = encodeData(raw, layout, window);
  if (failure !== undefined) return refused(failure);
  const count = window.length / 2;
  const request: ModbusRequest =
    count === 1
      ? { unit, functionCode: 6, address, count: 1, data: window }
      : { unit, functionCode: 16, address, count, data: window };
  return master.request(request);
}

function refused(failure: CodecFailure): WriteResult {
  return { ok: false, errno: failure.errno, reason: failure.reason };
}

async function writeCoils(master: RequestSink, channel: ModbusChannel, raw: Value): Promise<WriteResult> {
  const size = channel.dataSizeBits;
  const data = new Uint8Array(Math.ceil(size / 8));
  const failure = encodeData(raw, { ...channel, dataOffsetBits: 0 }, data, true);
  if (failure !== undefined) return refused(failure);
  const address = channel.registerAddress + channel.dataOffsetBits;
  const unit = channel.deviceAddress;
  if (size === 1) return master.request({ unit, functionCode: 5, address, count: 1, data });
  return master.request({ unit, functionCode: 15, address, count: size, data });
}

/** True when the channel's register type can be written at all. */
export function writable(channel: ModbusChannel): boolean {
  return !channel.readOnly && (channel.registerType === 'coil' || channel.registerType === 'holdingRegister');
}
