/**
 * The board's UARTs as the core's Serial port: ECMA-419 Serial on the pins the
 * board configuration gives the GNSS receiver and the RS-485 line. Only a
 * composition root that links a feature using a UART imports this module (and
 * with it the Serial adapter, serial.ts).
 */
import type { Clock, Serial } from '../../src/ports.js';
import type { BoardConfig } from './config.js';
import { boardIo, type SerialPins } from './io.js';
import { moddableSerial } from './serial.js';

export function boardSerial(board: BoardConfig, clock: Clock): Serial {
  const pins: Record<string, SerialPins> = {};
  // Each feature's UART: `<name>Port` on pins `<name>Rx` and `<name>Tx`.
  for (const name of ['gnss', 'modbus'] as const) {
    const port = board[`${name}Port`];
    if (port !== undefined) pins[port] = { receive: board[`${name}Rx`], transmit: board[`${name}Tx`] };
  }
  return moddableSerial(boardIo(), clock, pins);
}
