/**
 * The GNSS receiver of the Node agent, from `--gnss` (env DDS_GNSS):
 *
 *   --gnss /dev/ttyUSB0[@9600]     a real receiver on a serial device (NodeSerial over serialport)
 *   --gnss simulated               the simulated receiver driving a built-in route
 *   --gnss simulated:route.json    ...driving {"waypoints":[{"lat","lon","altM"}],"speedMps","loop"}
 *   --gnss simulated:capture.log   ...replaying a recorded NMEA log, in a loop
 *
 * The port and baud rate are board configuration, not channel configuration
 * (issue 5): every `location` channel of the device reads this one receiver.
 */
import { AgentError } from '../../src/errors.js';
import { GnssLocationProvider } from '../../src/gnss/location-provider.js';
import type { Clock, Logger, Serial } from '../../src/ports.js';
import { SimulatedReceiver } from '../../host-sim/gnss/receiver.js';
import type { RouteOptions } from '../../host-sim/gnss/route.js';
import { SimulatedGnssSerial } from '../../host-sim/gnss/serial.js';
import { ReopeningSerial } from '../../src/serial/reopening-serial.js';
import { NodeSerial } from './serial.js';

export const DEFAULT_BAUD_RATE = 9600;

/** A loop through central Stockholm at 10 m/s (36 km/h). */
export const BUILT_IN_ROUTE: RouteOptions = {
  waypoints: [
    { lat: 59.3293, lon: 18.0686, altM: 20 },
    { lat: 59.3326, lon: 18.0649, altM: 28 },
    { lat: 59.3346, lon: 18.0717, altM: 25 },
    { lat: 59.3312, lon: 18.0752, altM: 18 },
    { lat: 59.3293, lon: 18.0686, altM: 20 },
  ],
  speedMps: 10,
  loop: true,
};

export type GnssFlag =
  { kind: 'device'; path: string; baudRate: number } | { kind: 'simulated'; file: string | undefined };

/** Parses the value of `--gnss`; throws AgentError `config.invalid` with a message for the user. */
export function parseGnssFlag(value: string): GnssFlag {
  if (value === 'simulated' || value.startsWith('simulated:')) {
    const file = value.slice('simulated:'.length);
    return { kind: 'simulated', file: value === 'simulated' ? undefined : file };
  }
  const at = value.lastIndexOf('@');
  const path = at < 0 ? value : value.slice(0, at);
  const baudText = at < 0 ? undefined : value.slice(at + 1);
  const baudRate = baudText === undefined ? DEFAULT_BAUD_RATE : Number(baudText);
  if (path === '') throw new AgentError('config.invalid', `--gnss: no device path in "${value}"`);
  if (!Number.isInteger(baudRate) || baudRate < 300 || baudRate > 4_000_000) {
    throw new AgentError(
      'config.invalid',
      `--gnss: baud rate must be an integer from 300 to 4000000, got "${baudText}"`,
    );
  }
  return { kind: 'device', path, baudRate };
}

function routeFromJson(text: string, file: string): RouteOptions {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (e) {
    throw new AgentError('config.invalid', `--gnss ${file}: ${(e as Error).message}`);
  }
  const o = body as Partial<RouteOptions> | null;
  if (o === null || typeof o !== 'object' || !Array.isArray(o.waypoints) || typeof o.speedMps !== 'number') {
    throw new AgentError(
      'config.invalid',
      `--gnss ${file}: expected {"waypoints": [{"lat", "lon", "altM"}], "speedMps"}`,
    );
  }
  const waypoints = o.waypoints.map((w: unknown, i) => {
    const p = w as { lat?: unknown; lon?: unknown; altM?: unknown } | null;
    if (p === null || typeof p.lat !== 'number' || typeof p.lon !== 'number') {
      throw new AgentError('config.invalid', `--gnss ${file}: waypoint ${i} needs numeric lat and lon`);
    }
    return typeof p.altM === 'number' ? { lat: p.lat, lon: p.lon, altM: p.altM } : { lat: p.lat, lon: p.lon };
  });
  return { waypoints, speedMps: o.speedMps, loop: o.loop !== false };
}

export interface GnssContext {
  clock: Clock;
  logger: Logger;
  readFile: (path: string) => string;
  /** The host's serial ports (default NodeSerial). */
  serial?: Serial;
}

/** The location provider for a `--gnss` value. */
export function gnssProvider(value: string, context: GnssContext): GnssLocationProvider {
  const flag = parseGnssFlag(value);
  const { clock, logger } = context;
  if (flag.kind === 'device') {
    // An unplugged USB receiver is reopened with back-off (src/serial/reopening-serial.ts).
    const serial = context.serial ?? new ReopeningSerial(new NodeSerial(), clock, logger);
    return new GnssLocationProvider({ serial, port: { port: flag.path, baudRate: flag.baudRate }, clock, logger });
  }
  let receiver: SimulatedReceiver;
  try {
    if (flag.file === undefined) receiver = new SimulatedReceiver({ clock, route: BUILT_IN_ROUTE });
    else if (/\.json$/i.test(flag.file)) {
      receiver = new SimulatedReceiver({ clock, route: routeFromJson(context.readFile(flag.file), flag.file) });
    } else receiver = new SimulatedReceiver({ clock, log: context.readFile(flag.file), loopLog: true });
  } catch (e) {
    if (e instanceof AgentError) throw e;
    throw new AgentError('config.invalid', `--gnss ${value}: ${(e as Error).message}`, { cause: e });
  }
  const serial = new SimulatedGnssSerial(receiver);
  return new GnssLocationProvider({ serial, port: { port: 'simulated', baudRate: serial.baudRate }, clock, logger });
}
