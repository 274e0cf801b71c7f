/**
 * Great-circle distance for the `delta` transmit event of location channels
 * (decisions.md section 3, rule 5, applied to positions): the haversine formula
 * on a sphere of the Earth's mean radius (IUGG, 6 371 008.8 m). Its error against
 * the WGS-84 ellipsoid is under 0.5 %, far below any sensible minimalChange.
 */

const earthRadiusM = 6371008.8;
const radPerDeg = Math.PI / 180;

/** Metres between two positions given in decimal degrees. */
export function distanceMeters(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const dLat = (lat2 - lat1) * radPerDeg;
  const dLon = (lon2 - lon1) * radPerDeg;
  const s1 = Math.sin(dLat / 2);
  const s2 = Math.sin(dLon / 2);
  const a = s1 * s1 + Math.cos(lat1 * radPerDeg) * Math.cos(lat2 * radPerDeg) * s2 * s2;
  return 2 * earthRadiusM * Math.asin(Math.min(1, Math.sqrt(a)));
}
