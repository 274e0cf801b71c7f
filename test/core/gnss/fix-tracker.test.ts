import type { Location } from '../../../src/agent/driver.js';
import { EpochTracker } from '../../../src/gnss/epoch-tracker.js';
import { FixTracker } from '../../../src/gnss/fix-tracker.js';
import { CountingNmeaParser } from '../../../src/gnss/nmea-parser.js';
import { FakeClock } from '../../fakes/fake-clock.js';
import { assert } from '../../support/assert.js';
import { ascii, logBody, nmea } from './logs.js';

function rig(): {
  clock: FakeClock;
  tracker: EpochTracker;
  parser: CountingNmeaParser;
  feed: (text: string) => void;
  epochs: string[];
} {
  const clock = new FakeClock();
  const epochs: string[] = [];
  const tracker = new EpochTracker({ clock, onEpochEnd: (t) => epochs.push(`${t.timeOfDayMs}:${t.valid}`) });
  const parser = new CountingNmeaParser({ onLine: (f) => tracker.onLine(f) });
  return { clock, tracker, parser, feed: (text) => parser.push(ascii(text)), epochs };
}

const gga = (time: string, quality = 1, sats = 8, talker = 'GP'): string =>
  nmea(`${talker}GGA,${time},5321.6802,N,00630.3372,W,${quality},${sats},1.03,61.7,M,55.2,M,,`);
const rmc = (time: string, status = 'A'): string =>
  nmea(`GPRMC,${time},${status},5321.6802,N,00630.3372,W,0.02,31.66,280511,,,A`);
const gsa = (mode: number, dops = '1.72,1.03,1.38', system = ''): string =>
  nmea(`GNGSA,A,${mode},01,02,03,,,,,,,,,,${dops}${system}`);

describe('gnss/fix-tracker', () => {
  it('loses the fix when the receiver says so (bu353-glonass), and never invents one', () => {
    const { tracker, feed } = rig();
    const lines = logBody('gnss-logs/bu353-glonass.log').split('\n');
    const lossAt = lines.findIndex((l) => l.startsWith('$GPGGA,081420.000'));
    feed(lines.slice(0, lossAt).join('\n') + '\n');
    assert.ok(tracker.valid);
    assert.near(tracker.lat, 55 + 41.1973 / 60, 1e-9);
    feed(lines.slice(lossAt).join('\n') + '\n');
    assert.equal(tracker.valid, false);
  });

  it('loses and regains the fix (quectel), with the new position', () => {
    const { tracker, feed } = rig();
    const lines = logBody('gnss-logs/quectel.log').split('\n');
    const lost = lines.findIndex((l) => l.startsWith('$GPGGA,,,,,,0,'));
    const back = lines.findIndex((l) => l.startsWith('$GPGGA,022047.00'));
    assert.ok(lost > 0 && back > lost);
    feed(lines.slice(0, lost).join('\n') + '\n');
    assert.ok(tracker.valid);
    feed(lines.slice(lost, back).join('\n') + '\n');
    assert.equal(tracker.valid, false);
    feed(lines[back] + '\n');
    assert.ok(tracker.valid);
    assert.near(tracker.lat, -(36 + 44.759431 / 60), 1e-9);
  });

  it('never has a fix on garmin-geko201 (simulator mode and void RMCs)', () => {
    const { tracker, feed } = rig();
    for (const line of logBody('gnss-logs/garmin-geko201.log').split('\n')) {
      feed(line + '\n');
      assert.equal(tracker.valid, false, line);
    }
    assert.ok(Number.isNaN(tracker.lastValidFixMs));
    assert.equal(tracker.locate(Infinity, {}), false);
  });

  it('treats a UTC time that stops advancing as a lost fix (the gpsd rule), until it moves on', () => {
    const { tracker, feed, clock } = rig();
    feed(rmc('092750.000') + gga('092750.000'));
    assert.ok(tracker.valid);
    clock.advance(1000);
    feed(rmc('092750.000') + gga('092750.000'));
    assert.equal(tracker.valid, false);
    assert.equal(clock.monotonicMs() - tracker.lastValidFixMs, 1000);
    feed(rmc('092751.000') + gga('092751.000'));
    assert.ok(tracker.valid);
    assert.equal(tracker.lastValidFixMs, clock.monotonicMs());
  });

  it('locates the fix for a channel only within its timeout, leaving out unknown fields', () => {
    const { tracker, feed, clock } = rig();
    const out: Location = { alt: 1 };
    feed(rmc('092750.000'));
    assert.ok(tracker.locate(1000, out));
    assert.deepEqual(Object.keys(out).sort(), ['lat', 'lon']);
    assert.near(out.lon ?? NaN, -(6 + 30.3372 / 60), 1e-12);
    clock.advance(1000);
    assert.ok(tracker.locate(1000, out));
    clock.advance(1);
    const stale: Location = {};
    assert.equal(tracker.locate(1000, stale), false);
    assert.deepEqual(stale, {}, 'untouched when too old');
    feed(rmc('092751.000') + gga('092751.000') + gsa(3));
    assert.ok(tracker.locate(1000, out));
    assert.deepEqual([out.alt, out.sats, out.pdop, out.hdop, out.vdop], [61.7, 8, 1.72, 1.03, 1.38]);
  });

  it('does not read GLGGA beside GPGGA of the same second as a stuck time, and adds their satellites', () => {
    const { tracker, feed } = rig();
    feed(gga('020935.000', 1, 8, 'GP') + gga('020935.000', 1, 2, 'GL'));
    assert.ok(tracker.valid);
    assert.equal(tracker.sats, 10);
    feed(gga('020936.000', 1, 12, 'GN'));
    assert.equal(tracker.sats, 12);
  });

  it('merges the GSAs of one epoch (best mode, DOPs once) and judges each epoch on its own', () => {
    const { tracker, feed } = rig();
    feed(gga('100000.00') + gsa(3, '1.05,0.64,0.83', ',1') + gsa(1, '1.05,0.64,0.83', ',4'));
    assert.ok(tracker.valid);
    assert.deepEqual([tracker.pdop, tracker.hdop, tracker.vdop], [1.05, 0.64, 0.83]);
    feed(gga('100001.00') + gsa(1, ',,', ',1'));
    assert.equal(tracker.valid, false);
    assert.equal(tracker.hdop, 0.64, 'empty DOP fields keep the last known DOPs');
    feed(gga('100002.00') + gsa(2, '2.5,1.5,2.0'));
    assert.ok(tracker.valid);
    assert.equal(tracker.pdop, 2.5);
  });

  it('needs every indicator of the epoch to agree: RMC void or GGA quality 0 loses the fix', () => {
    const { tracker, feed } = rig();
    feed(rmc('120000.00', 'V') + gga('120000.00'));
    assert.equal(tracker.valid, false);
    feed(rmc('120001.00') + gga('120001.00', 0));
    assert.equal(tracker.valid, false);
    feed(rmc('120002.00') + gga('120002.00', 2));
    assert.ok(tracker.valid);
    feed(rmc('120003.00') + gga('120003.00', 8));
    assert.equal(tracker.valid, false, 'quality 8 is a simulator, not a fix');
  });

  it('changes nothing for a malformed field it reads, and does not look at the fields it does not use', () => {
    const { tracker, parser, feed } = rig();
    feed(nmea('GPGGA,120000.00,53x1.6802,N,00630.3372,W,1,8,1.03,61.7,M,55.2,M,,'));
    feed(nmea('GPRMC,120000.00,A,5321.6802,N,00630.3372,W,0.02,31.66,280511,,,AA'));
    assert.ok(Number.isNaN(tracker.lat) && Number.isNaN(tracker.timeOfDayMs));
    assert.equal(parser.counters.malformed, 2);
    // Speed, course and date are not read: a bad one there does not refuse the position.
    feed(nmea('GPRMC,120001.00,A,5321.6802,N,00630.3372,W,x,y,2208-1,,,A'));
    assert.ok(tracker.valid);
    assert.near(tracker.lat, 53 + 21.6802 / 60, 1e-12);
    assert.deepEqual([parser.counters.delivered, parser.counters.malformed, parser.counters.failed], [1, 2, 0]);
  });

  it('reports each ended epoch before applying the next one', () => {
    const { feed, epochs } = rig();
    feed(rmc('000001.00') + gga('000001.00') + rmc('000002.00', 'V') + rmc('000003.00'));
    assert.deepEqual(epochs, ['1000:true', '2000:false']);
  });

  it('counts epochs and shows an ended epoch as it stood (EpochTracker: host tools and tests)', () => {
    const clock = new FakeClock();
    const seen: { time: number; sats: number; valid: boolean }[] = [];
    const tracker = new EpochTracker({
      clock,
      onEpochEnd: (e) => seen.push({ time: e.timeOfDayMs, sats: e.sats, valid: e.valid }),
    });
    const parser = new CountingNmeaParser(tracker);
    parser.push(ascii(gga('000001.00', 1, 8) + gga('000001.00', 1, 8, 'GL') + gga('000002.00', 0, 2)));
    assert.equal(tracker.epochs, 2);
    assert.deepEqual(seen, [{ time: 1000, sats: 16, valid: true }], 'the second epoch has not ended');
    assert.deepEqual([tracker.sats, tracker.valid], [2, false]);
    const plain = new FixTracker({ clock });
    new CountingNmeaParser(plain).push(ascii(gga('000001.00', 1, 8) + gga('000002.00', 0, 2)));
    assert.deepEqual([plain.timeOfDayMs, plain.sats, plain.valid], [2000, 2, false], 'the same fix without them');
  });
});
