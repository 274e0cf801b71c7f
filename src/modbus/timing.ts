/**
 * Serial line timing of Modbus RTU (Modbus over Serial Line V1.02, section
 * 2.5.1.1): a character is a start bit, the data bits, an optional parity bit
 * and the stop bits; frames are separated by at least 3.5 character times of
 * silence. Above 19200 baud the specification fixes the interval at 1.75 ms.
 */
import type { ModbusBus } from '../config/model.js';

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
