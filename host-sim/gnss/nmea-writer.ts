/**
 * Formats NMEA 0183 sentences as a receiver writes them (GGA, RMC, GSA, GSV),
 * with valid checksums and CRLF. Used by the simulated receiver.
 */

/** `$<body>*<checksum>\r\n`. */
export function frame(body: string): string {
  let sum = 0;
  for (let i = 0; i < body.length; i++) sum ^= body.charCodeAt(i);
  return `$${body}*${sum.toString(16).toUpperCase().padStart(2, '0')}\r\n`;
}

function pad(n: number, width: number): string {
  return String(n).padStart(width, '0');
}

/** `ddmm.mmmmm,N` or `dddmm.mmmmm,E` (5 decimals of minutes, about 2 cm); empty fields for NaN. */
export function angle(value: number, isLat: boolean): string {
  if (Number.isNaN(value)) return ',';
  const hemi = isLat ? (value < 0 ? 'S' : 'N') : value < 0 ? 'W' : 'E';
  const abs = Math.abs(value);
  let deg = Math.floor(abs);
  let minutes = Math.round((abs - deg) * 60 * 1e5) / 1e5;
  if (minutes >= 60) {
    deg += 1;
    minutes -= 60;
  }
  const [whole, frac] = minutes.toFixed(5).split('.');
  return `${pad(deg, isLat ? 2 : 3)}${pad(Number(whole), 2)}.${frac ?? '00000'},${hemi}`;
}

/** `hhmmss.ss` from Unix milliseconds (UTC). */
export function utcTime(unixMs: number): string {
  const d = new Date(unixMs);
  const cs = Math.floor(d.getUTCMilliseconds() / 10);
  return `${pad(d.getUTCHours(), 2)}${pad(d.getUTCMinutes(), 2)}${pad(d.getUTCSeconds(), 2)}.${pad(cs, 2)}`;
}

/** `ddmmyy` from Unix milliseconds (UTC). */
export function utcDate(unixMs: number): string {
  const d = new Date(unixMs);
  return `${pad(d.getUTCDate(), 2)}${pad(d.getUTCMonth() + 1, 2)}${pad(d.getUTCFullYear() % 100, 2)}`;
}

const num = (v: number, digits: number): string => (Number.isNaN(v) ? '' : v.toFixed(digits));

export interface FixFields {
  unixMs: number;
  /** NaN when there is no fix. */
  lat: number;
  lon: number;
  altM: number;
  /** GGA quality: 0 none, 1 GPS. */
  quality: number;
  sats: number;
  hdop: number;
  speedMps: number;
  courseDeg: number;
}

export function gga(talker: string, f: FixFields): string {
  const geoidSepM = f.quality > 0 ? '47.0' : '';
  const body = `${talker}GGA,${utcTime(f.unixMs)},${angle(f.lat, true)},${angle(f.lon, false)},${f.quality},${pad(f.sats, 2)},${num(f.hdop, 2)},${num(f.altM, 1)},M,${geoidSepM},M,,`;
  return frame(body);
}

export function rmc(talker: string, f: FixFields): string {
  const valid = f.quality > 0;
  const knots = valid ? (f.speedMps * 3600) / 1852 : NaN;
  const course = valid ? f.courseDeg : NaN;
  const body = `${talker}RMC,${utcTime(f.unixMs)},${valid ? 'A' : 'V'},${angle(f.lat, true)},${angle(f.lon, false)},${num(knots, 3)},${num(course, 2)},${utcDate(f.unixMs)},,,${valid ? 'A' : 'N'},V`;
  return frame(body);
}

/** One GSA (NMEA 4.11: with the system id). `mode` 1 no fix, 2 2D, 3 3D. */
export function gsa(
  mode: number,
  prns: readonly number[],
  dops: { pdop: number; hdop: number; vdop: number },
  systemId: number,
): string {
  const fields = Array.from({ length: 12 }, (_, i) => (prns[i] === undefined ? '' : pad(prns[i] as number, 2)));
  return frame(
    `GNGSA,A,${mode},${fields.join(',')},${num(dops.pdop, 2)},${num(dops.hdop, 2)},${num(dops.vdop, 2)},${systemId}`,
  );
}

export interface SatelliteView {
  prn: number;
  elevationDeg: number;
  azimuthDeg: number;
  /** NaN when not tracked. */
  snrDb: number;
}

/** The GSV group of one talker: four satellites per sentence. */
export function gsv(talker: string, sats: readonly SatelliteView[]): string {
  const count = Math.max(1, Math.ceil(sats.length / 4));
  let out = '';
  for (let m = 0; m < count; m++) {
    const part = sats
      .slice(m * 4, m * 4 + 4)
      .map(
        (s) =>
          `${pad(s.prn, 2)},${pad(Math.round(s.elevationDeg), 2)},${pad(Math.round(s.azimuthDeg), 3)},${Number.isNaN(s.snrDb) ? '' : pad(Math.round(s.snrDb), 2)}`,
      );
    out += frame([`${talker}GSV`, count, m + 1, pad(sats.length, 2), ...part].join(','));
  }
  return out;
}
