/**
 * The GNSS receiver of the Node agent, from `--gnss` (env DDS_GNSS):
 *
 *   --gnss /dev/ttyUSB0[@9600]     a real receiver on a serial device (NodeSerial over serialport)
 *   --gnss simulated[:FILE]        the simulated receiver, when the simulator is plugged in
 *                                  (`npm run device`, host-sim/device/hardware.ts)
 *
 * The port and baud rate are board configuration, not channel configuration:
 * every `location` channel of the device reads this one receiver.
 */
import { AgentError } from '../../src/errors.js';
import { GnssLocationProvider } from '../../src/gnss/location-provider.js';
import type { Clock, Logger, Serial } from '../../src/ports.js';
import { ReopeningSerial } from '../../src/serial/reopening-serial.js';
import { checkTarget, type Hardware } from './hardware.js';
import { NodeSerial } from './serial.js';

export const DEFAULT_BAUD_RATE = 9600;

export interface GnssFlag {
  path: string;
  baudRate: number;
}

/** Parses the value of `--gnss` (a device, or a target the plugged hardware claims); throws `config.invalid`. */
export function parseGnssFlag(value: string, hardware: Hardware = {}): GnssFlag {
  checkTarget('--gnss', value, hardware);
  if (hardware.claims?.(value) === true) return { path: value, baudRate: DEFAULT_BAUD_RATE };
  const at = value.lastIndexOf('@');
  const path = at < 0 ? value : value.slice(0, at);
  const baudText = at < 0 ? undefined : value.slice(at + 1);
  const baudRate = baudText === undefined ? DEFAULT_BAUD_RATE : Number(baudText);
  if (path === '') throw new AgentError('config.invalid', `--gnss: no device path in "${value}"`);
  if (!Number.isInteger(baudRate) || baudRate < 300 || baudRate > 4_000_000) {
    throw new AgentError(
      'config.invalid',
      `--gnss ${value}: baud rate must be an integer from 300 to 4000000, got "${baudText}"`,
    );
  }
  return { path, baudRate };
}

export interface GnssContext {
  clock: Clock;
  logger: Logger;
  /** The host's serial ports (default NodeSerial) and what else is plugged in. */
  hardware?: Hardware;
}

/** The location provider for a `--gnss` value. */
export function gnssProvider(value: string, context: GnssContext): GnssLocationProvider {
  const hardware = context.hardware ?? {};
  const flag = parseGnssFlag(value, hardware);
  const { clock, logger } = context;
  // A port that fails (an unplugged USB receiver) is reopened with back-off (src/serial/reopening-serial.ts).
  const serial: Serial = new ReopeningSerial(hardware.serial ?? new NodeSerial(), clock, logger);
  return new GnssLocationProvider({ serial, port: { port: flag.path, baudRate: flag.baudRate }, clock, logger });
}
