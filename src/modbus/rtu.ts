/**
 * Modbus RTU on the line (Modbus over Serial Line V1.02; Modbus Application
 * Protocol V1.1b3, sections 6.1 to 6.12): CRC-16, character timing, the request
 * frames of function codes 1, 2, 3, 4 (reads) and 5, 6, 15, 16 (writes), and
 * the checks a response passes before its data is believed.
 *
 * CRC-16/MODBUS (section 6.2.2): polynomial 0xA001 (reflected 0x8005), initial
 * value 0xFFFF, sent low byte first. Timing (section 2.5.1.1): a character is a
 * start bit, the data bits, an optional parity bit and the stop bits; frames
 * are separated by 3.5 character times of silence, fixed at 1.75 ms above 19200
 * baud.
 *
 * Data travel as a "window", exactly as the PDU carries them: register bytes
 * big-endian, or coil / discrete-input bits packed least significant bit first.
 */
import type { ModbusBus } from '../config/model.js';
import { Errno } from '../errno.js';

export type FunctionCode = 1 | 2 | 3 | 4 | 5 | 6 | 15 | 16;

/** One request: `count` coils or registers from `address`; writes carry their PDU data. */
export interface ModbusRequest {
  unit: number;
  functionCode: FunctionCode;
  address: number;
  count: number;
  /** FC 5: 0xFF 0x00 (on) or 0x00 0x00; FC 6: the register; FC 15: packed bits; FC 16: count x 2 bytes. */
  data?: Uint8Array;
}

/** Largest RTU frame (address + PDU of 253 + CRC). */
export const MAX_ADU_BYTES = 256;

/** Most coils (FC 1, 2) or registers (FC 3, 4) one read may ask for (sections 6.1 to 6.4). */
export const readLimit = (fc: FunctionCode): number => (fc <= 2 ? 2000 : 125);

/**
 * CRC of `bytes[0 .. end)`, bit by bit as the specification's routine: no
 * 512-byte table kept in RAM; a 256-byte frame costs 2,048 shift steps, far less
 * than its time on the line.
 */
export function crc16(bytes: Uint8Array, end = bytes.length): number {
  let crc = 0xffff;
  for (let i = 0; i < end; i++) {
    crc ^= bytes[i]!;
    for (let k = 0; k < 8; k++) crc = (crc & 1) !== 0 ? (crc >>> 1) ^ 0xa001 : crc >>> 1;
  }
  return crc;
}

/** Appends the CRC of `bytes[0 .. length)` at `length` (low byte first); returns the frame length. */
export function appendCrc(bytes: Uint8Array, length: number): number {
  const crc = crc16(bytes, length);
  bytes[length] = crc & 0xff;
  bytes[length + 1] = crc >>> 8;
  return length + 2;
}

/**
 * True when the last two bytes of `bytes[0 .. length)` are the CRC of the rest:
 * the CRC of a frame that ends with its own CRC (low byte first) is 0.
 */
export function crcOk(bytes: Uint8Array, length: number): boolean {
  return length >= 4 && crc16(bytes, length) === 0;
}

const stopBits = { none: 0, one: 1, onePointFive: 1.5, two: 2 } as const;

/** Milliseconds one character takes on the line. */
export function characterMs(bus: Pick<ModbusBus, 'baudRate' | 'dataBits' | 'parity' | 'stopBits'>): number {
  return ((1 + bus.dataBits + (bus.parity === 'none' ? 0 : 1) + stopBits[bus.stopBits]) * 1000) / bus.baudRate;
}

/** The 3.5-character silent interval before every request, in milliseconds. */
export function silentIntervalMs(bus: Pick<ModbusBus, 'baudRate' | 'dataBits' | 'parity' | 'stopBits'>): number {
  return bus.baudRate > 19200 ? 1.75 : 3.5 * characterMs(bus);
}

/** Encodes the request frame (with CRC) into `out`; returns its length. */
export function encodeRequest(r: ModbusRequest, out: Uint8Array): number {
  const { functionCode: fc, count, data } = r;
  out.set([r.unit, fc, r.address >>> 8, r.address & 0xff, count >>> 8, count & 0xff]);
  if (fc < 5 || data === undefined) return appendCrc(out, 6);
  // FC 5 and 6 carry their value where a quantity would be; FC 15 and 16 a byte count and the data.
  if (fc < 15) out.set(data.subarray(0, 2), 4);
  else out.set([data.length, ...data], 6);
  return appendCrc(out, fc < 15 ? 6 : 7 + data.length);
}

/** Length the response in `rx[0 .. length)` will have when complete, or 0 while too short to tell. */
export function expectedResponseLength(rx: Uint8Array, length: number): number {
  const fc = rx[1]!;
  if (length < 3) return 0;
  return fc >= 0x80 ? 5 : fc <= 4 ? 5 + rx[2]! : 8;
}

/** `checkResponse`: an answer not to be believed (bad CRC, another unit or function, a wrong length or echo). */
export const GARBLED = -1;
/** `checkResponse`: an exception response; its code is byte 2. */
export const EXCEPTION = -2;

/**
 * Checks a complete response (`rx[0 .. length)`, `length` as
 * expectedResponseLength gives it, so that it matches the response's function
 * code and byte count) against the request frame `sent`: the byte count of
 * read data (at offset 3; 0 for a write's echo of address and value or
 * quantity), GARBLED or EXCEPTION.
 */
export function checkResponse(sent: Uint8Array, rx: Uint8Array, length: number): number {
  const fc = sent[1]!;
  if (!crcOk(rx, length) || rx[0] !== sent[0]) return GARBLED;
  if (rx[1] === (fc | 0x80)) return EXCEPTION;
  if (rx[1] !== fc) return GARBLED;
  if (fc <= 4) {
    const count = (sent[4]! << 8) | sent[5]!;
    const n = fc <= 2 ? Math.ceil(count / 8) : count * 2;
    return rx[2] === n ? n : GARBLED;
  }
  for (let i = 2; i < 6; i++) if (rx[i] !== sent[i]) return GARBLED;
  return 0;
}

/**
 * The error number of an exception code (Application Protocol section 7;
 * decisions.md section 4): 01 -EOPNOTSUPP; 02, 03 -EINVAL; 0A, 0B -ENODEV;
 * 04, 05, 06, 08 and unknown codes -EIO.
 */
export function exceptionErrno(code: number): number {
  const errnos: Readonly<Record<number, number>> = {
    1: Errno.EOPNOTSUPP,
    2: Errno.EINVAL,
    3: Errno.EINVAL,
    0x0a: Errno.ENODEV,
    0x0b: Errno.ENODEV,
  };
  return errnos[code] ?? Errno.EIO;
}
