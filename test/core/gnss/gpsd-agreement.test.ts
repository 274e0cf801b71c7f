/**
 * What the location channel reports agrees with gpsd 3.22 on every real log.
 *
 * Each `.chk` file interleaves the sentences gpsd read with the JSON reports it
 * wrote after them. The sentences are delivered to a GnssLocationProvider over
 * a FakeSerial, and at each report the channel's sample is compared:
 * TPV mode >= 2 with lat/lon <-> a Location; mode <= 1 <-> -ETIMEDOUT;
 * lat/lon within 1e-8 degrees (gpsd prints 9 decimals; about 1 mm), altitude
 * (TPV altMSL, mode 3) within 1e-3 m, SKY hdop/pdop/vdop within 0.005.
 * Where we differ on purpose, the report is classified by `deliberate` (the
 * docs/gnss.md explains each rule); nothing else may differ.
 */
import type { Location, Sample } from '../../../src/agent/driver.js';
import { GnssLocationProvider } from '../../../src/gnss/location-provider.js';
import { FakeClock } from '../../fakes/fake-clock.js';
import { FakeLogger } from '../../fakes/fake-logger.js';
import { FakeSerial } from '../../fakes/fake-serial.js';
import { assert } from '../../support/assert.js';
import { readFixture } from '../../support/fixtures.js';
import { LOG_FILES, locationChannel } from './logs.js';

const DEG_TOLERANCE = 1e-8;
const ALT_TOLERANCE_M = 1e-3;
const DOP_TOLERANCE = 0.005 + 1e-9;

interface GpsdReport {
  class?: string;
  mode?: number;
  lat?: number;
  lon?: number;
  altMSL?: number;
  hdop?: number;
  pdop?: number;
  vdop?: number;
}

/**
 * Why a report where we differ from gpsd is on purpose, or undefined.
 * - simulator: GGA quality 8 is a receiver in simulator mode, not a fix (garmin-geko201 has no fix).
 * - talker-time: gpsd's stuck-time rule compares GGA times across talkers, so GLGGA after
 *   GPGGA of the same second reads as "stuck"; ours compares per talker.
 * - no-position: gpsd reports a mode before any position is known; a Location needs lat/lon.
 */
function deliberate(report: GpsdReport, last: string, lastGga: string, sample: Sample): string | undefined {
  const gpsdValid = (report.mode ?? 0) >= 2;
  if (gpsdValid && report.lat === undefined && !sample.ok) return 'no-position';
  if (gpsdValid && !sample.ok && /^\$..GGA(,[^,]*){5},8,/.test(lastGga)) return 'simulator';
  if (!gpsdValid && sample.ok && /^\$GLGGA/.test(last)) return 'talker-time';
  if (!gpsdValid && sample.ok && report.lat === undefined && /^\$..GSA/.test(last)) return 'no-position';
  return undefined;
}

function replay(path: string): { compared: number; positions: number; dops: number; reasons: Record<string, number> } {
  const clock = new FakeClock();
  const serial = new FakeSerial();
  const provider = new GnssLocationProvider({
    serial,
    port: { port: 2, baudRate: 9600 },
    clock,
    logger: new FakeLogger(),
  });
  const driver = provider.create(locationChannel());
  const port = serial.last;
  let last = '';
  let lastGga = '';
  const result = { compared: 0, positions: 0, dops: 0, reasons: {} as Record<string, number> };
  for (const line of readFixture(`${path}.chk`).split('\n')) {
    if (line.startsWith('$') || line.startsWith('!')) {
      port.deliverText(line + '\r\n');
      last = line;
      if (/^\$..GGA/.test(line)) lastGga = line;
      continue;
    }
    if (!line.startsWith('{')) continue;
    const report = JSON.parse(line) as GpsdReport;
    const sample = driver.sample();
    if (report.class === 'SKY') {
      const t = provider.tracker;
      for (const k of ['hdop', 'pdop', 'vdop'] as const) {
        const theirs = report[k];
        if (theirs === undefined) continue;
        assert.near(t[k], theirs, DOP_TOLERANCE, `${path}: ${k} after ${last}`);
        result.dops++;
      }
      continue;
    }
    if (report.class !== 'TPV') continue;
    const reason = deliberate(report, last, lastGga, sample);
    if (reason !== undefined) {
      result.reasons[reason] = (result.reasons[reason] ?? 0) + 1;
      continue;
    }
    result.compared++;
    const gpsdValid = (report.mode ?? 0) >= 2;
    assert.equal(sample.ok, gpsdValid, `${path}: validity after ${last}`);
    if (!sample.ok) {
      assert.equal(sample.errno, -110);
      continue;
    }
    const loc = sample.value as Location;
    assert.near(loc.lat, report.lat ?? NaN, DEG_TOLERANCE, `${path}: lat after ${last}`);
    assert.near(loc.lon, report.lon ?? NaN, DEG_TOLERANCE, `${path}: lon after ${last}`);
    if (report.mode === 3 && report.altMSL !== undefined) {
      assert.near(loc.alt, report.altMSL, ALT_TOLERANCE_M, `${path}: alt after ${last}`);
    }
    result.positions++;
  }
  provider.close();
  return result;
}

/** Reports we expect to differ on purpose, per log (anything else fails). */
const EXPECTED_DIFFERENCES: Record<string, Record<string, number>> = {
  'gnss-logs/bu353-glonass.log': { 'no-position': 2 },
  'gnss-logs/garmin-geko201.log': { simulator: 3 },
  'gnss-logs/sirfstarv-nmea.log': { 'talker-time': 1 },
};

describe('gnss: agreement with gpsd on real logs', () => {
  for (const path of LOG_FILES) {
    it(`${path}: positions, altitudes, validity and DOPs agree with gpsd`, () => {
      const r = replay(path);
      assert.deepEqual(r.reasons, EXPECTED_DIFFERENCES[path] ?? {}, `${path}: deliberate differences`);
      assert.ok(r.compared > 0, `${path}: no report compared`);
      if (path !== 'gnss-logs/garmin-geko201.log') assert.ok(r.positions > 0, `${path}: no position compared`);
      else assert.equal(r.positions, 0, 'garmin-geko201 never has a fix');
    });
  }
});
