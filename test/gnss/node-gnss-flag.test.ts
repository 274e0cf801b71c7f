import assert from 'node:assert/strict';
import { AgentError } from '../../src/errors.js';
import { BUILT_IN_ROUTE, simulatedGnssSerial } from '../../host-sim/hardware/gnss.js';
import { parseDeviceOptions } from '../../host-sim/hardware/agent.js';
import { simulatorPlug } from '../../host-sim/hardware/plug.js';
import { CustomChannels } from '../../src/custom/provider.js';
import { gnssProvider, parseGnssFlag } from '../../targets/node/gnss.js';
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

const base = ['--service', 'http://127.0.0.1:1', '--device', 'd', '--token', 't'];

describe('gnss: --gnss on the Node target', () => {
  it('parses a device path with an optional baud rate', () => {
    assert.deepEqual(parseGnssFlag('/dev/ttyUSB0'), { path: '/dev/ttyUSB0', baudRate: 9600 });
    assert.deepEqual(parseGnssFlag('/dev/ttyACM0@115200'), { path: '/dev/ttyACM0', baudRate: 115200 });
    // Simulated receivers are the simulator's: the target alone refuses them, naming the command that has them.
    assert.throws(() => parseGnssFlag('simulated'), /--gnss: "simulated" is simulated hardware; `npm run device`/);
    assert.deepEqual(parseGnssFlag('simulated:r.json', { claims: () => true }), {
      path: 'simulated:r.json',
      baudRate: 9600,
    });
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
      hardware: { serial },
    });
    provider.create(locationChannel());
    assert.deepEqual(serial.last.options, { port: '/dev/ttyUSB0', baudRate: 38400 });
  });

  it('drives the built-in route, a route file or a log file when the simulator is plugged in', () => {
    for (const [value, text] of [
      ['simulated', ''],
      ['simulated:route.json', JSON.stringify({ waypoints: [{ lat: 1, lon: 2 }], speedMps: 0 })],
      ['simulated:neo.log', readFixture('gnss-logs/neo-m8n.log')],
    ] as const) {
      const clock = new FakeClock();
      const logger = new FakeLogger();
      const serial = simulatedGnssSerial(value, clock, () => text);
      const hardware = { serial, claims: () => true };
      const driver = gnssProvider(value, { clock, logger, hardware }).create(locationChannel());
      clock.advance(3000);
      assert.ok(driver.sample().ok, value);
    }
    assert.ok(BUILT_IN_ROUTE.waypoints.length > 2);
    const clock = new FakeClock();
    for (const [value, text] of [
      ['simulated:r.json', '{"waypoints": 3}'],
      ['simulated:r.json', 'not json'],
      ['simulated:empty.log', '# nothing\n'],
    ] as const) {
      assert.throws(
        () => simulatedGnssSerial(value, clock, () => text),
        (e: unknown) =>
          e instanceof AgentError && e.code === 'config.invalid' && e.message.startsWith(`--gnss ${value}`),
        value,
      );
    }
  });

  it('the simulator plug builds the receiver of --gnss simulated up front', () => {
    const clock = new FakeClock();
    const logger = new FakeLogger();
    const options = parseDeviceOptions([...base, '--gnss', 'simulated']);
    const hardware = simulatorPlug()({ options, clock, logger, custom: new CustomChannels(logger) });
    const driver = gnssProvider('simulated', { clock, logger, hardware }).create(locationChannel());
    clock.advance(3000);
    assert.ok(driver.sample().ok);
    const missing = parseDeviceOptions([...base, '--gnss', 'simulated:/nonexistent/route.json']);
    assert.throws(
      () => simulatorPlug()({ options: missing, clock, logger, custom: new CustomChannels(logger) }),
      /--gnss simulated:\/nonexistent\/route.json: ENOENT/,
    );
  });
});
