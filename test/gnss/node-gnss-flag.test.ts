import assert from 'node:assert/strict';
import { AgentError } from '../../src/errors.js';
import { BUILT_IN_ROUTE, gnssProvider, parseGnssFlag } from '../../targets/node/gnss.js';
import { parseOptions } from '../../targets/node/options.js';
import { FakeClock } from '../fakes/fake-clock.js';
import { FakeLogger } from '../fakes/fake-logger.js';
import { FakeSerial } from '../fakes/fake-serial.js';
import { locationChannel } from '../core/gnss/logs.js';
import { readFixture } from '../support/fixtures.js';

const code = (fn: () => unknown): string => {
  try {
    fn();
  } catch (e) {
    return e instanceof AgentError ? e.code : `not an AgentError: ${String(e)}`;
  }
  return 'did not throw';
};

describe('gnss: --gnss on the Node target', () => {
  it('parses a device path with an optional baud rate', () => {
    assert.deepEqual(parseGnssFlag('/dev/ttyUSB0'), { kind: 'device', path: '/dev/ttyUSB0', baudRate: 9600 });
    assert.deepEqual(parseGnssFlag('/dev/ttyACM0@115200'), { kind: 'device', path: '/dev/ttyACM0', baudRate: 115200 });
    assert.deepEqual(parseGnssFlag('simulated'), { kind: 'simulated', file: undefined });
    assert.deepEqual(parseGnssFlag('simulated:r.json'), { kind: 'simulated', file: 'r.json' });
    assert.equal(
      code(() => parseGnssFlag('/dev/ttyUSB0@fast')),
      'config.invalid',
    );
    assert.equal(
      code(() => parseGnssFlag('/dev/ttyUSB0@12')),
      'config.invalid',
    );
    assert.equal(
      code(() => parseGnssFlag('@9600')),
      'config.invalid',
    );
  });

  it('is an agent option (flag or DDS_GNSS)', () => {
    const base = ['--service', 'http://127.0.0.1:1', '--device', 'd', '--token', 't'];
    assert.deepEqual(parseOptions([...base, '--gnss', '/dev/ttyUSB1@4800'], {}, () => '').values['gnss'], [
      '/dev/ttyUSB1@4800',
    ]);
    assert.deepEqual(parseOptions(base, { DDS_GNSS: 'simulated' }, () => '').values['gnss'], ['simulated']);
  });

  it('opens the device at the given rate for location channels', () => {
    const serial = new FakeSerial();
    const clock = new FakeClock();
    const provider = gnssProvider('/dev/ttyUSB0@38400', {
      clock,
      logger: new FakeLogger(),
      readFile: () => '',
      serial,
    });
    provider.create(locationChannel());
    assert.deepEqual(serial.last.options, { port: '/dev/ttyUSB0', baudRate: 38400 });
  });

  it('drives the built-in route, a route file or a log file', () => {
    const ctx = (text: string) => ({ clock: new FakeClock(), logger: new FakeLogger(), readFile: () => text });
    for (const [value, text] of [
      ['simulated', ''],
      ['simulated:route.json', JSON.stringify({ waypoints: [{ lat: 1, lon: 2 }], speedMps: 0 })],
      ['simulated:neo.log', readFixture('gnss-logs/neo-m8n.log')],
    ] as const) {
      const c = ctx(text);
      const driver = gnssProvider(value, c).create(locationChannel());
      c.clock.advance(3000);
      assert.ok(driver.sample().ok, value);
    }
    assert.ok(BUILT_IN_ROUTE.waypoints.length > 2);
    assert.equal(
      code(() => gnssProvider('simulated:r.json', ctx('{"waypoints": 3}'))),
      'config.invalid',
    );
    assert.equal(
      code(() => gnssProvider('simulated:r.json', ctx('not json'))),
      'config.invalid',
    );
    assert.equal(
      code(() => gnssProvider('simulated:empty.log', ctx('# nothing\n'))),
      'config.invalid',
    );
  });
});
