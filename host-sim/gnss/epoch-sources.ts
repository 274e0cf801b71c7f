/**
 * Where the simulated receiver's epochs come from: a route driven under a
 * simulated sky (GGA, RMC, GSA per constellation, GSV; 1 Hz), or a recorded
 * NMEA log replayed one epoch per tick.
 */
import { gga, gsa, gsv, rmc, type FixFields } from './nmea-writer.js';
import { Route, type RouteOptions } from './route.js';
import { Sky } from './sky.js';

/** Produces the text of one epoch. */
export interface EpochSource {
  /**
   * The sentences of the epoch at `unixMs`, `elapsedMs` after the start;
   * `fix` false writes a receiver without a fix. Undefined: nothing more.
   */
  next(unixMs: number, elapsedMs: number, fix: boolean): string | undefined;
}

/** A route under a simulated sky. */
export class RouteSource implements EpochSource {
  private readonly route: Route;
  private readonly sky: Sky;

  constructor(options: RouteOptions, random: () => number) {
    this.route = new Route(options);
    this.sky = new Sky(random);
  }

  next(unixMs: number, elapsedMs: number, fix: boolean): string {
    const pos = this.route.at(elapsedMs);
    const sky = this.sky.at(elapsedMs);
    const used = sky.usedGps.length + sky.usedGlonass.length;
    const valid = fix && used >= 4 && !Number.isNaN(sky.pdop);
    const f: FixFields = {
      unixMs,
      lat: valid ? pos.lat : NaN,
      lon: valid ? pos.lon : NaN,
      altM: valid ? pos.altM : NaN,
      quality: valid ? 1 : 0,
      sats: valid ? used : 0,
      hdop: valid ? sky.hdop : NaN,
      speedMps: pos.speedMps,
      courseDeg: pos.courseDeg,
    };
    const dops = valid ? sky : { pdop: NaN, hdop: NaN, vdop: NaN };
    const mode = valid ? 3 : 1;
    return (
      rmc('GN', f) +
      gga('GN', f) +
      gsa(mode, valid ? sky.usedGps : [], dops, 1) +
      gsa(mode, valid ? sky.usedGlonass : [], dops, 2) +
      gsv('GP', sky.gps) +
      gsv('GL', sky.glonass)
    );
  }
}

const TIMED = /^\$..(GGA|RMC|GNS|GLL|ZDA),/;

/** The epochs of a recorded log: lines grouped by the UTC time of their timed sentences. */
export function logEpochs(text: string): string[] {
  const epochs: string[] = [];
  let current = '';
  let currentTime: string | undefined;
  for (const raw of text.split('\n')) {
    const line = raw.replace(/\r$/, '');
    if (line === '' || line.startsWith('#')) continue;
    if (TIMED.test(line)) {
      const fields = line.split(',');
      const time = /GLL,/.test(line) ? fields[5] : fields[1];
      if (time !== undefined && time !== '' && currentTime !== undefined && time !== currentTime && current !== '') {
        epochs.push(current);
        current = '';
      }
      if (time !== undefined && time !== '') currentTime = time;
    }
    current += line + '\r\n';
  }
  if (current !== '') epochs.push(current);
  return epochs;
}

/** A recorded log replayed one epoch per tick (`fix` cannot be changed: the log says what it says). */
export class LogSource implements EpochSource {
  private readonly epochs: string[];
  private index = 0;

  constructor(
    text: string,
    private readonly loop = false,
  ) {
    this.epochs = logEpochs(text);
    if (this.epochs.length === 0) throw new RangeError('the log holds no NMEA sentences');
  }

  next(): string | undefined {
    if (this.index >= this.epochs.length) {
      if (!this.loop) return undefined;
      this.index = 0;
    }
    return this.epochs[this.index++];
  }
}
