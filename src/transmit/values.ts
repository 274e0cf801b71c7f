/**
 * Value comparison for transmit events (decisions.md section 3): equality with
 * NaN equal to NaN, Location objects compared field by field, a reusable
 * Location copy so the decider keeps the last reported position without
 * allocating per scan, and the great-circle distance for `delta` on positions:
 * the haversine formula on a sphere of the Earth's mean radius (IUGG,
 * 6 371 008.8 m); its error against the WGS-84 ellipsoid is under 0.5 %, far
 * below any sensible minimalChange.
 */
import type { Location, SampleValue } from '../agent/driver.js';
import { isObject } from '../reader.js';
import { LocationFields } from '../wire.js';

/** A sample value is a Location when it is an object (one test for the wire and the samples: reader.ts). */
export const isLocation = isObject as (value: SampleValue) => value is Location;

/** Strict equality, except that NaN equals NaN (rule 4); only a number is not itself. */
function same(a: unknown, b: unknown): boolean {
  return a === b || (a !== a && b !== b);
}

/** Rule 4 equality: NaN equals NaN; Locations equal when every field is. */
export function sameValue(a: SampleValue, b: SampleValue): boolean {
  if (!isLocation(a) || !isLocation(b)) return same(a, b);
  for (const field of LocationFields) if (!same(a[field], b[field])) return false;
  return true;
}

/** Copies `source` into `target` (fields absent in source are deleted from target). */
export function copyLocation(target: Location, source: Location): Location {
  for (const field of LocationFields) {
    const v = source[field];
    if (v === undefined) delete target[field];
    else target[field] = v;
  }
  return target;
}

/**
 * Rule 5: |value - last| >= minimalChange for numbers; for Locations the distance
 * between the lat/lon pairs in metres (or lat/lon appearing or disappearing);
 * any change for other values.
 */
export function deltaReached(value: SampleValue, last: SampleValue, minimalChange: number): boolean {
  if (typeof value === 'number' && typeof last === 'number') return Math.abs(value - last) >= minimalChange;
  if (!isLocation(value) || !isLocation(last)) return !same(value, last);
  const a = value.lat !== undefined && value.lon !== undefined;
  if (a !== (last.lat !== undefined && last.lon !== undefined)) return true;
  return a && distanceMeters(last.lat!, last.lon!, value.lat!, value.lon!) >= minimalChange;
}

const earthRadiusM = 6371008.8;
const radPerDeg = Math.PI / 180;

/** Metres between two positions given in decimal degrees. */
function distanceMeters(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const dLat = (lat2 - lat1) * radPerDeg;
  const dLon = (lon2 - lon1) * radPerDeg;
  const s1 = Math.sin(dLat / 2);
  const s2 = Math.sin(dLon / 2);
  const a = s1 * s1 + Math.cos(lat1 * radPerDeg) * Math.cos(lat2 * radPerDeg) * s2 * s2;
  return 2 * earthRadiusM * Math.asin(Math.min(1, Math.sqrt(a)));
}
