/**
 * Modbus RTU frames of the master (Modbus Application Protocol V1.1b3,
 * sections 6.1 to 6.12; Modbus over Serial Line V1.02, section 2.5.1):
 * requests for function codes 1, 2, 3, 4 (reads) and 5, 6, 15, 16 (writes),
 * and the checks a response must pass before its data is believed.
 *
 * Data travel as a "window": register bytes big-endian as on the wire, or
 * coil / discrete-input bits packed least significant bit first (the first
 * coil is bit 0 of byte 0), exactly as the PDU carries them.
 */
import { Errno } from '../errno.js';
import { appendCrc, crcOk } from './rtu-line.js';

export const FunctionCodes = [1, 2, 3, 4, 5, 6, 15, 16] as const;
export type FunctionCode = (typeof FunctionCodes)[number];

/** Largest RTU frame (address + PDU of 253 + CRC). */
export const MAX_ADU_BYTES = 256;
/** Per-request quantity limits (Application Protocol 6.1 to 6.4, 6.11, 6.12). */
export const MaxQuantity: Readonly<Record<FunctionCode, number>> = {
  1: 2000,
  2: 2000,
  3: 125,
  4: 125,
  5: 1,
  6: 1,
  15: 1968,
  16: 123,
};

/** One request: `count` coils or registers from `address`; writes carry `data` as a window. */
export interface ModbusRequest {
  unit: number;
  functionCode: FunctionCode;
  address: number;
  count: number;
  /** FC 5: bit 0 of byte 0; FC 6: 2 bytes; FC 15: packed bits; FC 16: count x 2 bytes. */
  data?: Uint8Array;
}

/** True for the function codes that read bits (coils, discrete inputs). */
export function readsBits(fc: FunctionCode): boolean {
  return fc === 1 || fc === 2;
}

/** Bytes of data a read answers with. */
export function readByteCount(fc: FunctionCode, count: number): number {
  return readsBits(fc) ? Math.ceil(count / 8) : count * 2;
}

/** Encodes the request frame (with CRC) into `out`; returns its length. */
export function encodeRequest(r: ModbusRequest, out: Uint8Array): number {
  out[0] = r.unit;
  out[1] = r.functionCode;
  out[2] = r.address >>> 8;
  out[3] = r.address & 0xff;
  const data = r.data ?? new Uint8Array(0);
  switch (r.functionCode) {
    case 5:
      out[4] = ((data[0] ?? 0) & 1) === 1 ? 0xff : 0x00;
      out[5] = 0;
      return appendCrc(out, 6);
    case 6:
      out[4] = data[0] ?? 0;
      out[5] = data[1] ?? 0;
      return appendCrc(out, 6);
    case 15:
    case 16: {
      const n = r.functionCode === 15 ? Math.ceil(r.count / 8) : r.count * 2;
      out[4] = r.count >>> 8;
      out[5] = r.count & 0xff;
      out[6] = n;
      for (let i = 0; i < n; i++) out[7 + i] = data[i] ?? 0;
      return appendCrc(out, 7 + n);
    }
    default:
      out[4] = r.count >>> 8;
      out[5] = r.count & 0xff;
      return appendCrc(out, 6);
  }
}

/**
 * Length the response in `rx[0 .. length)` will have when complete, or 0
 * when too few bytes have arrived to tell.
 */
export function expectedResponseLength(rx: Uint8Array, length: number): number {
  if (length < 3) return 0;
  const fc = rx[1] ?? 0;
  if ((fc & 0x80) !== 0) return 5;
  if (fc >= 1 && fc <= 4) return 5 + (rx[2] ?? 0);
  return 8;
}

/** What a complete response frame says about its request. */
export type ResponseCheck =
  | { kind: 'data'; start: number; length: number }
  | { kind: 'written' }
  | { kind: 'exception'; code: number }
  /** Bad CRC, another unit or function, or a wrong length or echo: not believed. */
  | { kind: 'garbled'; reason: string };

/** Checks a complete response (`length` bytes) against its request. */
export function checkResponse(r: ModbusRequest, rx: Uint8Array, length: number): ResponseCheck {
  if (!crcOk(rx, length)) return { kind: 'garbled', reason: 'bad CRC' };
  if (rx[0] !== r.unit) return { kind: 'garbled', reason: `answer from unit ${rx[0] ?? -1}` };
  const fc = rx[1] ?? 0;
  if (fc === (r.functionCode | 0x80) && length === 5) return { kind: 'exception', code: rx[2] ?? 0 };
  if (fc !== r.functionCode) return { kind: 'garbled', reason: `function ${fc} answers ${r.functionCode}` };
  if (r.functionCode <= 4) {
    const n = readByteCount(r.functionCode, r.count);
    if (rx[2] !== n || length !== 5 + n) return { kind: 'garbled', reason: 'wrong byte count' };
    return { kind: 'data', start: 3, length: n };
  }
  // Writes echo bytes 2 to 5 of the request: address and value (5, 6) or address and quantity (15, 16).
  const echo = new Uint8Array(8); // a longer request's further bytes fall off its end
  encodeRequest(r, echo);
  let same = length === 8;
  for (let i = 2; i < 6; i++) same = same && rx[i] === echo[i];
  return same ? { kind: 'written' } : { kind: 'garbled', reason: 'write echo differs' };
}

/**
 * The error number of an exception code (Application Protocol section 7;
 * decisions.md section 4): 01 illegal function -EOPNOTSUPP; 02 illegal data
 * address and 03 illegal data value -EINVAL; 0A gateway path unavailable and
 * 0B gateway target failed to respond -ENODEV; 04 server device failure, 05,
 * 06, 08 and unknown codes -EIO.
 */
export function exceptionErrno(code: number): number {
  if (code === 1) return Errno.EOPNOTSUPP;
  if (code === 2 || code === 3) return Errno.EINVAL;
  return code === 0x0a || code === 0x0b ? Errno.ENODEV : Errno.EIO;
}
