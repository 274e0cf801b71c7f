/**
 * CRC-16/MODBUS (Modbus over Serial Line V1.02, section 6.2.2): polynomial
 * 0xA001 (reflected 0x8005), initial value 0xFFFF, transmitted low byte first.
 */

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
