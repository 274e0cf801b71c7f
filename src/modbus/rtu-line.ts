/**
 * The serial-line layer of Modbus RTU (Modbus over Serial Line V1.02):
 * - CRC-16/MODBUS (section 6.2.2): polynomial 0xA001 (reflected 0x8005),
 *   initial value 0xFFFF, transmitted low byte first;
 * - timing (section 2.5.1.1): a character is a start bit, the data bits, an
 *   optional parity bit and the stop bits; frames are separated by at least 3.5
 *   character times of silence; above 19200 baud the interval is fixed at 1.75 ms.
 */
import type { ModbusBus } from '../config/model.js';

const table = new Uint16Array(256);
for (let n = 0; n < 256; n++) {
  let c = n;
  for (let k = 0; k < 8; k++) c = (c & 1) !== 0 ? (c >>> 1) ^ 0xa001 : c >>> 1;
  table[n] = c;
}

/** CRC of `bytes[start .. end)`. */
export function crc16(bytes: Uint8Array, start = 0, end = bytes.length): number {
  let crc = 0xffff;
  for (let i = start; i < end; i++) {
    crc = (crc >>> 8) ^ (table[(crc ^ (bytes[i] ?? 0)) & 0xff] ?? 0);
  }
  return crc;
}

/** Appends the CRC of `bytes[0 .. length)` at `length` (low byte first); returns the frame length. */
export function appendCrc(bytes: Uint8Array, length: number): number {
  const crc = crc16(bytes, 0, length);
  bytes[length] = crc & 0xff;
  bytes[length + 1] = crc >>> 8;
  return length + 2;
}

/** True when the last two bytes of `bytes[0 .. length)` are the CRC of the rest. */
export function crcOk(bytes: Uint8Array, length: number): boolean {
  if (length < 4) return false;
  const crc = crc16(bytes, 0, length - 2);
  return bytes[length - 2] === (crc & 0xff) && bytes[length - 1] === crc >>> 8;
}

const stopBitCount = { none: 0, one: 1, onePointFive: 1.5, two: 2 } as const;

/** Bits on the line per character. */
export function bitsPerCharacter(bus: Pick<ModbusBus, 'dataBits' | 'parity' | 'stopBits'>): number {
  return 1 + bus.dataBits + (bus.parity === 'none' ? 0 : 1) + stopBitCount[bus.stopBits];
}

/** Milliseconds one character takes on the line. */
export function characterMs(bus: Pick<ModbusBus, 'baudRate' | 'dataBits' | 'parity' | 'stopBits'>): number {
  return (bitsPerCharacter(bus) * 1000) / bus.baudRate;
}

/** The 3.5-character silent interval before every request, in milliseconds. */
export function silentIntervalMs(bus: Pick<ModbusBus, 'baudRate' | 'dataBits' | 'parity' | 'stopBits'>): number {
  return bus.baudRate > 19200 ? 1.75 : 3.5 * characterMs(bus);
}
