/**
 * The board's UARTs as the core's Serial port: ECMA-419 Serial on the pins the
 * board configuration gives the GNSS receiver and the RS-485 line. Only a
 * composition root that links a feature using a UART imports this module (and
 * with it the Serial adapter, serial.ts).
 */
import type { Clock, Serial } from '../../src/ports.js';
import { boardIo, type SerialPins } from './io.js';
import { moddableSerial } from './serial.js';

/** The UARTs on `pins` (by port number; startFeatures fills it from the board configuration). */
export const boardSerial = (pins: Readonly<Record<string, SerialPins>>, clock: Clock): Serial =>
  moddableSerial(boardIo(), clock, pins);
