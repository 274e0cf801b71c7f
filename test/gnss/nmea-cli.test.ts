import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Location } from '../../src/agent/driver.js';
import { nmea } from '../core/gnss/logs.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const cli = join(root, 'build', 'host-sim', 'nmea-cli.js');
const log = (name: string): string => join(root, 'test', 'fixtures', 'gnss-logs', name);

/** One epoch as the CLI prints it: the Location fields known at that epoch. */
interface EpochLine extends Location {
  time: string;
  valid: boolean;
}

function run(args: string[], input?: string): { lines: EpochLine[]; stderr: string; status: number | null } {
  const r = spawnSync(process.execPath, [cli, ...args], { input, encoding: 'utf8' });
  const lines = r.stdout
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as EpochLine);
  return { lines, stderr: r.stderr, status: r.status };
}

describe('gnss: npm run nmea', () => {
  it('prints one JSON line per epoch, fix loss included, and a summary on stderr (bu353-glonass)', () => {
    const { lines, stderr, status } = run([log('bu353-glonass.log')]);
    assert.equal(status, 0);
    assert.equal(lines.length, 19);
    assert.deepEqual(lines[1], {
      time: '2014-05-26T08:14:12.000Z',
      valid: true,
      lat: 55 + 41.1956 / 60,
      lon: 37 + 37.2877 / 60,
      alt: 66.2,
      pdop: 4.97,
      hdop: 4.87,
      vdop: 1,
      sats: 5,
    });
    assert.deepEqual(lines.at(-1), { time: '2014-05-26T08:14:29.000Z', valid: false, sats: 0 });
    assert.match(stderr, /112 sentences passed .* 0 failed/);
  });

  it('reads standard input, and reports a receiver that never has a fix (garmin-geko201)', () => {
    const { lines, stderr } = run([], readFileSync(log('garmin-geko201.log'), 'latin1'));
    assert.ok(lines.length > 10);
    assert.ok(lines.every((l) => !l.valid && l.lat === undefined));
    assert.match(stderr, /1 failed/);
  });

  it('moves the date over midnight before the next RMC brings it, and not for a clock stepped back', () => {
    const rmc = (time: string, date: string): string =>
      nmea(`GPRMC,${time},A,4527.458,S,16709.165,E,000.0,094.5,${date},024.1,E`);
    const gga = (time: string): string => nmea(`GPGGA,${time},4527.458,S,16709.165,E,1,8,2.1,14.7,M,1.1,M,,`);
    const times = (input: string): string[] => run([], input).lines.map((l) => l.time);
    assert.deepEqual(times(rmc('235959', '060601') + gga('235959') + gga('000000') + gga('000001')), [
      '2001-06-06T23:59:59.000Z',
      '2001-06-07T00:00:00.000Z',
      '2001-06-07T00:00:01.000Z',
    ]);
    assert.deepEqual(times(rmc('000001', '070601') + gga('235958')), [
      '2001-06-07T00:00:01.000Z',
      '2001-06-06T23:59:58.000Z',
    ]);
    assert.deepEqual(times(rmc('194124', '060601') + gga('194111')), [
      '2001-06-06T19:41:24.000Z',
      '2001-06-06T19:41:11.000Z',
    ]);
    assert.deepEqual(times(gga('120000')), ['12:00:00.000Z']);
  });

  it('gives a clear error for a missing file or extra arguments', () => {
    const missing = run(['/no/such/file.log']);
    assert.equal(missing.status, 1);
    assert.match(missing.stderr, /cannot read \/no\/such\/file\.log/);
    assert.equal(run(['a', 'b']).status, 2);
    assert.match(execFileSync(process.execPath, [cli, '--help'], { encoding: 'utf8' }), /usage/);
  });
});
