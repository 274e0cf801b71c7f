/**
 * A channel's field inside the data of a (possibly merged) Modbus read, and
 * the data window a write of that field needs.
 *
 * Registers: the window starts at the channel's `registerAddress`; register
 * bytes are big-endian on the wire, so `bigEndian` is the byte string as read
 * and `littleEndian` its full reverse (src/codec/bits.ts).
 * Coils and discrete inputs: bit k of the window is address
 * `registerAddress + k`; a field of several bits takes its first bit as the
 * most significant for `bigEndian` and the least significant for `littleEndian`.
 */
import type { ModbusChannel } from '../config/model.js';
import type { Bits64 } from '../codec/bits.js';
import { decodeBits, decodeData, type Decoded } from '../codec/data.js';
import type { ModbusPoint } from './plan.js';

const scratch: Bits64 = { hi: 0, lo: 0 };

/** True when coil/input `index` (0 = first address read) is set in packed read data. */
export function bitAt(data: Uint8Array, index: number): boolean {
  return (((data[index >> 3] ?? 0) >> (index & 7)) & 1) === 1;
}

/** Decodes the channel's raw value from the data of a read that began at `readAddress`. */
export function decodePoint(
  channel: ModbusChannel,
  point: ModbusPoint,
  readAddress: number,
  data: Uint8Array,
): Decoded {
  const first = point.address - readAddress;
  if (!point.bits) {
    const window = data.subarray(first * 2, (first + point.count) * 2);
    return decodeData(window, channel);
  }
  const size = channel.dataSizeBits;
  let hi = 0;
  let lo = 0;
  for (let k = 0; k < size; k++) {
    if (!bitAt(data, first + channel.dataOffsetBits + k)) continue;
    const s = channel.dataOrder === 'bigEndian' ? size - 1 - k : k;
    if (s < 32) lo = (lo | (1 << s)) >>> 0;
    else hi = (hi | (1 << (s - 32))) >>> 0;
  }
  scratch.hi = hi;
  scratch.lo = lo;
  return decodeBits(scratch, size, channel.dataType);
}

/**
 * Packs a coil field into the FC 15 data window: `values` (from the encoder's
 * register-style bits) as coils from the channel's first written address.
 */
export function packCoils(field: Bits64, channel: ModbusChannel): Uint8Array {
  const size = channel.dataSizeBits;
  const out = new Uint8Array(Math.ceil(size / 8));
  for (let k = 0; k < size; k++) {
    const s = channel.dataOrder === 'bigEndian' ? size - 1 - k : k;
    const bit = s < 32 ? (field.lo >>> s) & 1 : (field.hi >>> (s - 32)) & 1;
    if (bit === 1) out[k >> 3] = (out[k >> 3] ?? 0) | (1 << (k & 7));
  }
  return out;
}
