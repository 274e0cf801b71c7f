/**
 * The fix rules of docs/gnss.md ("When is a fix valid"), case by case: GLL as
 * the position of a second no RMC/GGA/GNS covers, the quality / satellites /
 * GSA / RMC combinations, mixed talkers, and receiver clocks that step back.
 * Every stream is also fed split in two at every byte offset (the long
 * multi-talker streams at every 7th, to keep the XS run short): the outcome
 * must not depend on how the bytes arrive.
 */
import { EpochTracker } from '../../../src/gnss/epoch-tracker.js';
import { NmeaParser } from '../../../src/gnss/nmea-parser.js';
import { FakeClock } from '../../fakes/fake-clock.js';
import { assert } from '../../support/assert.js';
import { ascii, nmea } from './logs.js';

interface Outcome {
  valid: boolean;
  lat: number;
  lon: number;
  sats: number;
  epochs: number;
}

/** The tracker's state after `text`, delivered in `chunks` (byte offsets where it is cut). */
function run(text: string, cuts: readonly number[] = []): Outcome {
  const tracker = new EpochTracker({ clock: new FakeClock() });
  const parser = new NmeaParser({ onLine: (f) => tracker.onLine(f) });
  const bytes = ascii(text);
  let at = 0;
  for (const cut of [...cuts, bytes.length]) {
    parser.push(bytes.subarray(at, cut));
    at = cut;
  }
  const { valid, lat, lon, sats, epochs } = tracker;
  return { valid, lat, lon, sats, epochs };
}

/** `run(text)`, checked to be the same when the bytes are split at every offset (every `stride`th). */
function everySplit(text: string, stride = 1): Outcome {
  const whole = run(text);
  const expected = JSON.stringify(whole);
  for (let k = 1; k < text.length; k += stride) {
    const got = JSON.stringify(run(text, [k]));
    if (got !== expected) assert.fail(`split at ${k} of ${text.length}: ${got} != ${expected}`);
  }
  return whole;
}

const LAT = -(45 + 27.458 / 60);
const LON = 167 + 9.165 / 60;
const gll = (time: string, status = 'A', mode = '', talker = 'GP', lat = '4527.458'): string =>
  nmea(`${talker}GLL,${lat},S,16709.165,E,${time},${status}${mode === '' ? '' : ',' + mode}`);
const gga = (time: string, quality: number | '', sats: number | '', talker = 'GP', lat = '4527.458'): string =>
  nmea(`${talker}GGA,${time},${lat},S,16709.165,E,${quality},${sats},2.1,14.7,M,1.1,M,,`);
const rmc = (time: string, status = 'A', date = '060601', talker = 'GP'): string =>
  nmea(`${talker}RMC,${time},${status},4527.458,S,16709.165,E,000.0,094.5,${date},024.1,E`);
const gsa = (mode: number, talker = 'GP'): string => nmea(`${talker}GSA,A,${mode},01,13,20,22,,,,,,,,,3.1,2.1,2.0`);

describe('gnss/fix rules: GLL as a position source', () => {
  it('gives the fix of a second that only a GLL covers (Garmin 48: GLL one second after RMC/GGA)', () => {
    const text = rmc('225308') + gga('225308', 1, 5) + gsa(3) + gll('225309', 'A', '', 'GP', '4527.500');
    const r = everySplit(text);
    assert.deepEqual([r.valid, r.epochs], [true, 2]);
    assert.near(r.lat, -(45 + 27.5 / 60), 1e-12, 'the GLL position, not the previous second');
    assert.near(r.lon, LON, 1e-12);
  });

  it('takes a GLL alone, from any talker (marine $INGLL, $ECGLL), with mode A or D', () => {
    for (const [talker, mode] of [
      ['IN', ''],
      ['EC', 'D'],
      ['GN', 'A'],
    ] as const) {
      const r = everySplit(gll('164326', 'A', mode, talker) + gll('164328', 'A', mode, talker));
      assert.equal(r.valid, true, `${talker}GLL mode '${mode}'`);
      assert.near(r.lat, LAT, 1e-12);
    }
  });

  it('is no fix with status V, mode N, or no status at all (older receivers without time and status)', () => {
    assert.equal(everySplit(gll('164326', 'V')).valid, false);
    assert.equal(everySplit(gll('164326', 'A', 'N')).valid, false);
    const bare = run(nmea('GPGLL,4527.458,S,16709.165,E'));
    assert.deepEqual([bare.valid, Number.isNaN(bare.lat)], [false, true], 'a GLL without status gives nothing');
  });

  it('keeps the RMC/GGA position of a second they cover, whichever comes first', () => {
    for (const text of [
      gga('094736', 1, 12, 'GP', '4527.400') + gll('094736', 'A', 'A'),
      gll('094736', 'A', 'A') + gga('094736', 1, 12, 'GP', '4527.400'),
    ]) {
      const r = everySplit(text);
      assert.equal(r.valid, true);
      assert.near(r.lat, -(45 + 27.4 / 60), 1e-12);
    }
  });

  it('follows the other indicators of its second: a void RMC or GGA quality 0 wins over GLL status A', () => {
    assert.equal(everySplit(rmc('120000', 'V') + gll('120000')).valid, false);
    assert.equal(everySplit(gll('120000') + gga('120000', 0, 0)).valid, false);
    assert.equal(everySplit(rmc('120000') + gll('120000', 'V')).valid, false);
  });

  it('applies the stuck-time rule to a GLL repeating its time', () => {
    assert.equal(everySplit(gll('120000') + gll('120000')).valid, false);
    assert.equal(everySplit(gll('120000') + gll('120000') + gll('120001')).valid, true);
  });
});

describe('gnss/fix rules: quality, satellites used, GSA mode and RMC status', () => {
  const cases: readonly [string, string, boolean][] = [
    ['GGA quality 1, 0 satellites used, no GSA', gga('100000', 1, 0), false],
    ['GGA quality 1, 2 satellites used, no GSA', gga('100000', 1, 2), false],
    ['GGA quality 1, 3 satellites used', gga('100000', 1, 3), true],
    ['GGA quality 1, satellites field empty (unknown)', gga('100000', 1, ''), true],
    ['GGA quality 1, 0 satellites, then GSA 3D', gga('100000', 1, 0) + gsa(3), true],
    ['GGA quality 1, 0 satellites, then GSA no fix', gga('100000', 1, 0) + gsa(1), false],
    ['GGA quality 6 (dead reckoning), 0 satellites', gga('100000', 6, 0), false],
    ['GGA quality 0, 8 satellites, then GSA 3D', gga('100000', 0, 8) + gsa(3), false],
    ['GGA quality empty, 8 satellites, RMC A', gga('100000', '', 8) + rmc('100000'), true],
    ['GGA quality empty, 8 satellites, RMC V', gga('100000', '', 8) + rmc('100000', 'V'), false],
    ['GGA quality 7 (manual input)', gga('100000', 7, 8), false],
    ['GGA quality 8 (simulator), GSA 3D', gga('100000', 8, 9) + gsa(3), false],
    ['RMC A, GGA quality 1, GSA 2D', rmc('100000') + gga('100000', 1, 3) + gsa(2), true],
    ['RMC A with GSA no fix', rmc('100000') + gsa(1), false],
    ['GPGGA 2 + GLGGA 2 satellites: 4 used', gga('100000', 1, 2) + gga('100000', 1, 2, 'GL'), true],
    [
      'GNGGA 2 satellites beside GPGGA 8: the combined count wins',
      gga('100000', 1, 8) + gga('100000', 1, 2, 'GN'),
      false,
    ],
  ];
  for (const [name, text, valid] of cases) {
    it(`${name}: ${valid ? 'fix' : 'no fix'}`, () => {
      assert.equal(everySplit(text).valid, valid);
    });
  }

  it('judges the next second on its own sentences', () => {
    const r = everySplit(gga('100000', 1, 0) + gga('100001', 1, 7));
    assert.deepEqual([r.valid, r.sats, r.epochs], [true, 7, 2]);
  });
});

describe('gnss/fix rules: talkers and clocks', () => {
  it('adds the satellites of GP, GL, GA, GB, BD and GQ talkers of one second; a GN count wins', () => {
    const talkers = ['GP', 'GL', 'GA', 'GB', 'BD', 'GQ'];
    const text =
      talkers.map((t, i) => gga('100000', 1, i + 1, t) + gsa(3, t)).join('') + rmc('100000', 'A', '060601', 'GN');
    const r = everySplit(text, 7);
    assert.deepEqual([r.valid, r.sats, r.epochs], [true, 21, 1], 'no talker reads as a repeated time');
    const withGn = everySplit(text + gga('100000', 1, 17, 'GN'), 7);
    assert.deepEqual([withGn.valid, withGn.sats], [true, 17]);
  });

  it('takes a clock stepped back as a new second, not a stuck time', () => {
    const forward = rmc('194124') + gga('194124', 1, 8);
    const back = rmc('194111') + gga('194111', 1, 8, 'GP', '4527.300');
    const r = everySplit(forward + back);
    assert.deepEqual([r.valid, r.epochs], [true, 2]);
    assert.near(r.lat, -(45 + 27.3 / 60), 1e-12);
    const again = everySplit(forward + back + rmc('194112') + gga('194112', 1, 8), 7);
    assert.deepEqual([again.valid, again.epochs], [true, 3]);
  });
});
