/**
 * The simulated GNSS receiver behind `--gnss simulated[:FILE]` of
 * `npm run device` and `npm start`:
 *
 *   --gnss simulated               the simulated receiver driving a built-in route
 *   --gnss simulated:route.json    ...driving {"waypoints":[{"lat","lon","altM"}],"speedMps","loop"}
 *   --gnss simulated:capture.log   ...replaying a recorded NMEA log, in a loop
 */
import { AgentError } from '../../src/errors.js';
import type { Clock } from '../../src/ports.js';
import { SimulatedReceiver } from '../gnss/receiver.js';
import type { RouteOptions } from '../gnss/route.js';
import { SimulatedGnssSerial } from '../gnss/serial.js';

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

export function isSimulatedGnss(value: string): boolean {
  return value === 'simulated' || value.startsWith('simulated:');
}

function routeFromJson(text: string, file: string): RouteOptions {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (e) {
    throw new AgentError('config.invalid', `--gnss simulated:${file}: ${(e as Error).message}`);
  }
  const o = body as Partial<RouteOptions> | null;
  if (o === null || typeof o !== 'object' || !Array.isArray(o.waypoints) || typeof o.speedMps !== 'number') {
    throw new AgentError(
      'config.invalid',
      `--gnss simulated:${file}: expected {"waypoints": [{"lat", "lon", "altM"}], "speedMps"}`,
    );
  }
  const waypoints = o.waypoints.map((w: unknown, i) => {
    const p = w as { lat?: unknown; lon?: unknown; altM?: unknown } | null;
    if (p === null || typeof p.lat !== 'number' || typeof p.lon !== 'number') {
      throw new AgentError('config.invalid', `--gnss simulated:${file}: waypoint ${i} needs numeric lat and lon`);
    }
    return typeof p.altM === 'number' ? { lat: p.lat, lon: p.lon, altM: p.altM } : { lat: p.lat, lon: p.lon };
  });
  return { waypoints, speedMps: o.speedMps, loop: o.loop !== false };
}

/** The serial line of the simulated receiver for a `--gnss simulated[:FILE]` value; throws `config.invalid`. */
export function simulatedGnssSerial(
  value: string,
  clock: Clock,
  readFile: (path: string) => string,
): SimulatedGnssSerial {
  const file = value === 'simulated' ? undefined : value.slice('simulated:'.length);
  let receiver: SimulatedReceiver;
  try {
    if (file === undefined) receiver = new SimulatedReceiver({ clock, route: BUILT_IN_ROUTE });
    else if (/\.json$/i.test(file))
      receiver = new SimulatedReceiver({ clock, route: routeFromJson(readFile(file), file) });
    else receiver = new SimulatedReceiver({ clock, log: readFile(file), loopLog: true });
  } catch (e) {
    if (e instanceof AgentError) throw e;
    const why = (e as { code?: string }).code ?? (e as Error).message;
    throw new AgentError('config.invalid', `--gnss ${value}: ${why}`, { cause: e });
  }
  return new SimulatedGnssSerial(receiver);
}
