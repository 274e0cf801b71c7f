/**
 * A route for the simulated receiver: waypoints driven at a constant speed.
 * Positions are interpolated along each leg (legs are short, so a straight
 * line in latitude/longitude is close enough); distances are great-circle.
 */

export interface Waypoint {
  lat: number;
  lon: number;
  /** Metres above mean sea level; default 0. */
  altM?: number;
}

export interface RouteOptions {
  waypoints: readonly Waypoint[];
  /** Ground speed, metres per second; 0 parks at the first waypoint. */
  speedMps: number;
  /** Drive the route again from the start when the end is reached (default: stop there). */
  loop?: boolean;
}

export interface RoutePosition {
  lat: number;
  lon: number;
  altM: number;
  speedMps: number;
  /** True course over ground, degrees. */
  courseDeg: number;
}

const EARTH_RADIUS_M = 6371008.8;
const RAD = Math.PI / 180;

/** Great-circle distance in metres (haversine). */
export function distanceM(a: { lat: number; lon: number }, b: { lat: number; lon: number }): number {
  const dLat = (b.lat - a.lat) * RAD;
  const dLon = (b.lon - a.lon) * RAD;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.lat * RAD) * Math.cos(b.lat * RAD) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** Initial bearing from a to b, degrees 0..360. */
export function bearingDeg(a: { lat: number; lon: number }, b: { lat: number; lon: number }): number {
  const y = Math.sin((b.lon - a.lon) * RAD) * Math.cos(b.lat * RAD);
  const x =
    Math.cos(a.lat * RAD) * Math.sin(b.lat * RAD) -
    Math.sin(a.lat * RAD) * Math.cos(b.lat * RAD) * Math.cos((b.lon - a.lon) * RAD);
  return (Math.atan2(y, x) / RAD + 360) % 360;
}

export class Route {
  private readonly legsM: number[];
  readonly lengthM: number;

  constructor(private readonly options: RouteOptions) {
    if (options.waypoints.length === 0) throw new RangeError('a route needs at least one waypoint');
    if (!(options.speedMps >= 0)) throw new RangeError(`route speed must be >= 0, got ${options.speedMps}`);
    for (const w of options.waypoints) {
      if (!(Math.abs(w.lat) <= 90 && Math.abs(w.lon) <= 180)) throw new RangeError(`bad waypoint ${JSON.stringify(w)}`);
    }
    const w = options.waypoints;
    this.legsM = w.slice(1).map((p, i) => distanceM(w[i] as Waypoint, p));
    this.lengthM = this.legsM.reduce((a, b) => a + b, 0);
  }

  /** Where the vehicle is `elapsedMs` after the start. */
  at(elapsedMs: number): RoutePosition {
    const w = this.options.waypoints;
    let travelled = (this.options.speedMps * elapsedMs) / 1000;
    const moving = this.lengthM > 0 && this.options.speedMps > 0;
    if (moving && this.options.loop === true) travelled %= this.lengthM;
    for (let i = 0; i < this.legsM.length; i++) {
      const leg = this.legsM[i] as number;
      const a = w[i] as Waypoint;
      const b = w[i + 1] as Waypoint;
      if (travelled <= leg && leg > 0) {
        const f = travelled / leg;
        const altA = a.altM ?? 0;
        return {
          lat: a.lat + (b.lat - a.lat) * f,
          lon: a.lon + (b.lon - a.lon) * f,
          altM: altA + ((b.altM ?? 0) - altA) * f,
          speedMps: moving ? this.options.speedMps : 0,
          courseDeg: bearingDeg(a, b),
        };
      }
      travelled -= leg;
    }
    const end = moving ? (w[w.length - 1] as Waypoint) : (w[0] as Waypoint);
    return { lat: end.lat, lon: end.lon, altM: end.altM ?? 0, speedMps: 0, courseDeg: 0 };
  }
}
