/**
 * A simulated sky: GPS and GLONASS satellites whose elevation and azimuth drift
 * slowly, signal strength that follows elevation, and DOPs computed from the
 * geometry of the satellites used (the least-squares covariance (HᵀH)⁻¹, as a
 * receiver does), so DOPs are realistic and change as the sky turns.
 */
import type { SatelliteView } from './nmea-writer.js';

interface Orbit {
  prn: number;
  system: 'GP' | 'GL';
  azimuth0Deg: number;
  phase0: number;
  periodMs: number;
  maxElevationDeg: number;
}

export interface SkyState {
  gps: SatelliteView[];
  glonass: SatelliteView[];
  /** PRNs used in the fix (elevation >= mask and tracked), per system. */
  usedGps: number[];
  usedGlonass: number[];
  pdop: number;
  hdop: number;
  vdop: number;
}

const MASK_DEG = 10;
const RAD = Math.PI / 180;

/** DOPs of satellites at (elevation, azimuth) in degrees; NaN when fewer than 4. */
export function dops(sats: readonly { elevationDeg: number; azimuthDeg: number }[]): {
  pdop: number;
  hdop: number;
  vdop: number;
} {
  if (sats.length < 4) return { pdop: NaN, hdop: NaN, vdop: NaN };
  // Normal matrix N = HᵀH with rows h = (-cos el sin az, -cos el cos az, -sin el, 1).
  const n = Array.from({ length: 4 }, () => [0, 0, 0, 0]);
  for (const s of sats) {
    const el = s.elevationDeg * RAD;
    const az = s.azimuthDeg * RAD;
    const h = [-Math.cos(el) * Math.sin(az), -Math.cos(el) * Math.cos(az), -Math.sin(el), 1];
    for (let i = 0; i < 4; i++)
      for (let j = 0; j < 4; j++)
        (n[i] as number[])[j] = ((n[i] as number[])[j] as number) + (h[i] as number) * (h[j] as number);
  }
  const q = invert4(n);
  if (q === undefined) return { pdop: NaN, hdop: NaN, vdop: NaN };
  const d = (i: number): number => (q[i] as number[])[i] as number;
  const round = (v: number): number => Math.round(v * 100) / 100;
  return {
    pdop: round(Math.sqrt(d(0) + d(1) + d(2))),
    hdop: round(Math.sqrt(d(0) + d(1))),
    vdop: round(Math.sqrt(d(2))),
  };
}

/** Gauss-Jordan inverse of a 4x4 matrix; undefined when singular. */
function invert4(m: number[][]): number[][] | undefined {
  const a = m.map((row, i) => [...row, ...[0, 0, 0, 0].map((_, j) => (i === j ? 1 : 0))]);
  for (let c = 0; c < 4; c++) {
    let p = c;
    for (let r = c + 1; r < 4; r++)
      if (Math.abs((a[r] as number[])[c] as number) > Math.abs((a[p] as number[])[c] as number)) p = r;
    const pivotRow = a[p] as number[];
    if (Math.abs(pivotRow[c] as number) < 1e-12) return undefined;
    [a[c], a[p]] = [pivotRow, a[c] as number[]];
    const row = a[c] as number[];
    const pv = row[c] as number;
    for (let j = 0; j < 8; j++) row[j] = (row[j] as number) / pv;
    for (let r = 0; r < 4; r++) {
      if (r === c) continue;
      const other = a[r] as number[];
      const f = other[c] as number;
      for (let j = 0; j < 8; j++) other[j] = (other[j] as number) - f * (row[j] as number);
    }
  }
  return a.map((row) => row.slice(4));
}

/** A deterministic sky from a seed. */
export class Sky {
  private readonly orbits: Orbit[] = [];

  constructor(random: () => number) {
    const gpsPrns = [2, 5, 7, 9, 13, 15, 18, 20, 24, 29];
    const gloPrns = [65, 66, 72, 73, 81, 82];
    for (const prn of [...gpsPrns, ...gloPrns]) {
      this.orbits.push({
        prn,
        system: prn < 65 ? 'GP' : 'GL',
        azimuth0Deg: random() * 360,
        phase0: random() * Math.PI,
        periodMs: (10 + random() * 4) * 3600_000,
        maxElevationDeg: 35 + random() * 50,
      });
    }
  }

  /** The sky `elapsedMs` after the start. */
  at(elapsedMs: number): SkyState {
    const gps: SatelliteView[] = [];
    const glonass: SatelliteView[] = [];
    const used: SatelliteView[] = [];
    const usedGps: number[] = [];
    const usedGlonass: number[] = [];
    for (const o of this.orbits) {
      const phase = o.phase0 + (2 * Math.PI * elapsedMs) / o.periodMs;
      const elevationDeg = o.maxElevationDeg * Math.sin(phase);
      if (elevationDeg <= 0) continue;
      const azimuthDeg = (o.azimuth0Deg + (elapsedMs / o.periodMs) * 180) % 360;
      const snrDb = elevationDeg < 5 ? NaN : Math.min(50, 20 + elevationDeg * 0.4);
      const view = { prn: o.prn, elevationDeg, azimuthDeg, snrDb };
      (o.system === 'GP' ? gps : glonass).push(view);
      if (elevationDeg >= MASK_DEG && !Number.isNaN(snrDb) && used.length < 12) {
        used.push(view);
        (o.system === 'GP' ? usedGps : usedGlonass).push(o.prn);
      }
    }
    return { gps, glonass, usedGps, usedGlonass, ...dops(used) };
  }
}
