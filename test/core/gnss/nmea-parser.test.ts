import { GSV } from '../../../src/gnss/gsv.js';
import { sentenceReader } from '../../../src/gnss/nmea-decode.js';
import { CountingNmeaParser } from '../../../src/gnss/nmea-parser.js';
import type { NmeaSentence } from '../../../src/gnss/sentences.js';
import { assert } from '../../support/assert.js';
import { LOG_FILES, ascii, copySentence, logBody, nmea, parseInChunks, prng } from './logs.js';

function parseLines(...lines: string[]): { out: NmeaSentence[]; parser: CountingNmeaParser } {
  const out: NmeaSentence[] = [];
  const parser = new CountingNmeaParser({
    onLine: sentenceReader((s) => out.push(copySentence(s) as unknown as NmeaSentence), [GSV]),
  });
  parser.push(ascii(lines.join('\r\n') + '\r\n'));
  return { out, parser };
}

describe('gnss/nmea-parser: real receiver logs', () => {
  for (const path of LOG_FILES) {
    it(`${path}: whole, byte by byte and in random chunks gives the same sentences`, () => {
      const bytes = ascii(logBody(path));
      const whole = parseInChunks(bytes, () => bytes.length);
      const bytewise = parseInChunks(bytes, () => 1);
      const random = prng(path.length * 7919);
      const chunked = parseInChunks(bytes, () => 1 + Math.floor(random() * 97));
      assert.ok(whole.sentences.length > 20, `${path}: only ${whole.sentences.length} sentences`);
      // The only refused lines are those without a checksum (garmin-geko201 has "$GPBOD,,T,,M,,*").
      const unsummed = logBody(path)
        .split('\n')
        .filter((l) => l.startsWith('$') && !/\*[0-9A-Fa-f]{2}\r?$/.test(l)).length;
      assert.equal(whole.counters.failed, unsummed, `${path}: failed lines`);
      assert.equal(whole.counters.malformed, 0, `${path}: malformed lines`);
      assert.deepEqual(bytewise.sentences, whole.sentences);
      assert.deepEqual(chunked.sentences, whole.sentences);
      assert.deepEqual(bytewise.counters, whole.counters);
      assert.deepEqual(chunked.counters, whole.counters);
    });
  }

  it('splits the first lines of a log at every offset and still gives the same sentences', () => {
    const text = logBody('gnss-logs/beidou-bd.log').split('\n').slice(0, 12).join('\n') + '\n';
    const bytes = ascii(text);
    const whole = parseInChunks(bytes, () => bytes.length).sentences;
    for (let cut = 1; cut < bytes.length; cut++) {
      const sizes = [cut, bytes.length];
      assert.deepEqual(parseInChunks(bytes, () => sizes.shift() ?? 1).sentences, whole);
    }
  });
});

describe('gnss/nmea-parser: sentences', () => {
  it('decodes GGA with an extra trailing field', () => {
    const { out } = parseLines('$GNGGA,074155.799,3114.8770,N,12135.2463,E,1,05,1.3,156.9,M,8.3,M,,0000,*54');
    const gga = out[0];
    assert.ok(gga !== undefined && gga.type === 'GGA');
    assert.equal(gga.talker, 'GN');
    assert.equal(gga.timeMs, ((7 * 60 + 41) * 60 + 55) * 1000 + 799);
    assert.near(gga.lat, 31 + 14.877 / 60, 1e-12);
    assert.near(gga.lon, 121 + 35.2463 / 60, 1e-12);
    assert.equal(gga.quality, 1);
    assert.equal(gga.sats, 5);
    assert.equal(gga.altM, 156.9);
  });

  it('decodes RMC with the NMEA 4.10 navigational status, south and west', () => {
    const { out } = parseLines('$GNRMC,003956.00,A,4552.65403,S,17030.00668,W,0.025,,120419,,,A,V*15');
    const rmc = out[0];
    assert.ok(rmc !== undefined && rmc.type === 'RMC');
    assert.equal(rmc.status, 'A');
    assert.equal(rmc.mode, 'A');
    assert.equal(rmc.navStatus, 'V');
    assert.near(rmc.lat, -45.877567167, 1e-9);
    assert.near(rmc.lon, -170.500111333, 1e-9);
    assert.equal(rmc.dateDays, Date.UTC(2019, 3, 12) / 86400000);
  });

  it('decodes GSA with a system id, and leniently a vendor field in its place', () => {
    const { out } = parseLines(
      '$GNGSA,A,3,82,66,81,,,,,,,,,,1.05,0.64,0.83,2*0C',
      '$BDGSA,A,3,02,03,04,,,,,,,,,,5.1,1.3,4.9,3.3*2F',
    );
    const [a, b] = out;
    assert.ok(a !== undefined && a.type === 'GSA' && b !== undefined && b.type === 'GSA');
    assert.deepEqual([a.fixMode, a.prns, a.pdop, a.hdop, a.vdop, a.systemId], [3, [82, 66, 81], 1.05, 0.64, 0.83, 2]);
    assert.equal(b.talker, 'BD');
    assert.ok(Number.isNaN(b.systemId));
    assert.equal(b.vdop, 4.9);
  });

  it('decodes GSV with a signal id, empty elevation and SNR', () => {
    const { out } = parseLines(
      '$GPGSV,4,4,13,46,,,50,1*61',
      '$GPGSV,3,3,12,26,04,276,,27,15,218,31,29,24,004,13,30,00,159,,1*69',
    );
    const [a, b] = out;
    assert.ok(a !== undefined && a.type === 'GSV' && b !== undefined && b.type === 'GSV');
    assert.equal(a.count, 1);
    assert.deepEqual(a.prn, [46]);
    assert.ok(Number.isNaN(a.elevationDeg[0] as number));
    assert.equal(a.signalId, 1);
    assert.equal(b.count, 4);
    assert.deepEqual(b.snrDb.slice(0, 2), [NaN, 31]);
  });

  it('decodes GLL with and without the NMEA 2.3 mode, and the older form without time and status', () => {
    const { out } = parseLines(
      '$GNGLL,4404.14066,N,12118.85481,W,171925.00,A,A*66',
      '$GPGLL,4527.458,S,16709.165,E,225309,A*3E',
      '$GPGLL,4916.45,N,12311.12,W*71',
    );
    assert.deepEqual(
      out.map((s) => (s.type === 'GLL' ? [s.talker, s.timeMs, s.status, s.mode] : s.type)),
      [
        ['GN', 62_365_000, 'A', 'A'],
        ['GP', 82_389_000, 'A', ''],
        ['GP', NaN, '', ''],
      ],
    );
    const first = out[0] as { lat: number; lon: number };
    assert.near(first.lat, 44 + 4.14066 / 60, 1e-12);
    assert.near(first.lon, -(121 + 18.85481 / 60), 1e-12);
  });

  it('decodes GNS mode characters', () => {
    const { out } = parseLines('$GNGNS,074150.799,,,,,NNNN,00,,,0.0,,0000*63');
    const gns = out[0];
    assert.ok(gns !== undefined && gns.type === 'GNS');
    assert.equal(gns.modes, 'NNNN');
    assert.equal(gns.anyFix, false);
  });

  it('accepts lower-case checksum digits and names other talkers', () => {
    const { out } = parseLines(
      '$GPGSA,A,1,,,,,,,,,,,,,,,,*32',
      '$QZGSA,A,1,,,,,,,,,,,,,,,,*2e',
      '$ZZGSA,A,1,,,,,,,,,,,,,,,,*25',
    );
    assert.deepEqual(
      out.map((s) => s.talker),
      ['GP', 'QZ', 'other'],
    );
  });
});

describe('gnss/nmea-parser: bad input', () => {
  const good = '$GPGGA,092750.000,5321.6802,N,00630.3372,W,1,8,1.03,61.7,M,55.2,M,,*76';

  it('requires the checksum and delivers nothing from a line whose checksum fails', () => {
    const bad = good.replace('5321', '5322');
    const noSum = good.slice(0, good.indexOf('*'));
    const { out, parser } = parseLines(bad, noSum, good);
    assert.equal(out.length, 1);
    assert.near((out[0] as { lat: number }).lat, 53 + 21.6802 / 60, 1e-12);
    assert.equal(parser.counters.failed, 2);
    assert.equal(parser.counters.passed, 1);
  });

  it('counts overlong lines, lines cut by a new start, control bytes and noise', () => {
    const parser = new CountingNmeaParser({ onLine: () => true });
    parser.push(ascii('xx\x00' + good + '\r\n'));
    parser.push(ascii('$GPGGA,0927' + good + '\r\n'));
    parser.push(ascii('$GPGSA,A,1,\x01,,*00\r\n'));
    const body = good.slice(1, good.indexOf('*')) + ',';
    parser.push(ascii(nmea(body.padEnd(125, 'x')))); // 129 bytes with '$' and '*hh': one too many
    parser.push(ascii(nmea(body.padEnd(124, 'x')))); // 128 bytes: fits
    assert.equal(parser.counters.failed, 3);
    assert.equal(parser.counters.passed, 3);
    assert.ok(parser.counters.noiseBytes >= 3);
  });

  it('refuses a checksum-valid sentence with a malformed field and skips unknown types', () => {
    const { out, parser } = parseLines(
      '$GPGGA,092750.000,53x1.6802,N,00630.3372,W,1,8,1.03,61.7,M,55.2,M,,*3C',
      '$GPVTG,,T,,M,0.117,N,0.216,K,A*21',
      '$PSRFEPE,074150.799,V,,,,,*23',
    );
    assert.equal(out.length, 0);
    assert.equal(parser.counters.malformed, 1);
    assert.equal(parser.counters.skipped, 2);
  });

  it('reads numbers through one scanner: integers are digits only, times have six digits before the point', () => {
    const gga = (time: string, lat: string, sats: string): string =>
      nmea(`GPGGA,${time},${lat},N,00630.3372,W,1,${sats},1.03,61.7,M,55.2,M,,`).trimEnd();
    const malformed = [
      gga('12000', '5321.6802', '8'), // five digits of time
      gga('+120000', '5321.6802', '8'),
      gga('120000.123456789012', '5321.6802', '8'), // 18 digits: more than one number holds
      gga('120000', '+5321.6802', '8'),
      gga('120000', '.5', '8'),
      gga('120000', '5321.6802', '8.0'),
      gga('120000', '5321.6802', '-8'),
      gga('120000', '5321.6802', '0000000008'), // ten digits
    ];
    const { out, parser } = parseLines(...malformed, gga('120000.', '5321.6802', '08'), gga('120001.5', '0.5', '8'));
    assert.equal(parser.counters.malformed, malformed.length);
    assert.deepEqual(
      out.map((s) => [(s as { timeMs: number }).timeMs, (s as { sats: number }).sats]),
      [
        [43200000, 8],
        [43201500, 8],
      ],
    );
    assert.near((out[1] as { lat: number }).lat, 0.5 / 60, 1e-12);
  });

  it('survives a throwing callback and counts it', () => {
    const parser = new CountingNmeaParser({
      onLine: sentenceReader(() => {
        throw new Error('consumer bug');
      }),
    });
    parser.push(ascii(good + '\r\n' + good + '\r\n'));
    assert.equal(parser.counters.callbackErrors, 2);
    assert.equal(parser.counters.passed, 2);
  });
});
