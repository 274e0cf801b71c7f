import type { Location, Sample } from '../../../src/agent/driver.js';
import type { Channel } from '../../../src/config/model.js';
import { GnssLocationProvider } from '../../../src/gnss/location-provider.js';
import { AgentError } from '../../../src/errors.js';
import type { Serial } from '../../../src/ports.js';
import { FakeClock } from '../../fakes/fake-clock.js';
import { FakeLogger } from '../../fakes/fake-logger.js';
import { FakeSerial } from '../../fakes/fake-serial.js';
import { assert } from '../../support/assert.js';
import { locationChannel, nmea } from './logs.js';

function rig(serial: Serial = new FakeSerial()): {
  clock: FakeClock;
  logger: FakeLogger;
  provider: GnssLocationProvider;
} {
  const clock = new FakeClock();
  const logger = new FakeLogger();
  const provider = new GnssLocationProvider({ serial, port: { port: '/dev/ttyUSB0', baudRate: 9600 }, clock, logger });
  return { clock, logger, provider };
}

function epoch(second: number): string {
  const time = `1200${String(second).padStart(2, '0')}.00`;
  return (
    nmea(`GNRMC,${time},A,4404.14063,N,12118.85478,W,0.117,,180315,,,A`) +
    nmea(`GNGGA,${time},4404.14063,N,12118.85478,W,1,12,0.91,1147.2,M,-21.3,M,,`) +
    nmea('GNGSA,A,3,01,11,31,14,22,32,04,25,03,,,,1.56,0.91,1.27')
  );
}

function location(sample: Sample): Location {
  assert.ok(sample.ok, `expected a Location, got errno ${sample.ok ? '' : sample.errno}`);
  return sample.value as Location;
}

describe('gnss/location-provider', () => {
  it('opens the receiver port once, with the board settings, for every location channel', () => {
    const serial = new FakeSerial();
    const { provider } = rig(serial);
    assert.deepEqual(provider.types, ['location']);
    provider.create(locationChannel('gps'));
    provider.create(locationChannel('gps2'));
    assert.equal(serial.ports.length, 1);
    assert.deepEqual(serial.last.options, { port: '/dev/ttyUSB0', baudRate: 9600 });
    provider.close();
    assert.ok(serial.last.closed);
  });

  it('reports -ETIMEDOUT before the first fix, then a Location with every known field', () => {
    const serial = new FakeSerial();
    const { provider, logger } = rig(serial);
    const driver = provider.create(locationChannel('gps', 5000));
    assert.deepEqual(driver.sample(), { ok: false, errno: -110 });
    serial.last.deliverText(epoch(0), 7);
    const loc = location(driver.sample());
    assert.near(loc.lat, 44.0690105, 1e-9);
    assert.near(loc.lon, -121.314246333, 1e-9);
    assert.deepEqual([loc.alt, loc.pdop, loc.hdop, loc.vdop, loc.sats], [1147.2, 1.56, 0.91, 1.27, 12]);
    assert.equal(logger.find('info', 'gnss gps: fix').length, 1);
    logger.assertNoErrors();
  });

  it('leaves out fields it does not know (RMC only: no altitude, DOPs or satellites)', () => {
    const serial = new FakeSerial();
    const { provider } = rig(serial);
    const driver = provider.create(locationChannel());
    serial.last.deliverText(nmea('GPRMC,081411.000,A,5541.1955,N,03737.2872,E,0.60,301.29,260514,,,A'));
    assert.deepEqual(Object.keys(location(driver.sample())).sort(), ['lat', 'lon']);
  });

  it('times out on the clock when the receiver goes quiet, and reports again when fixes return', () => {
    const serial = new FakeSerial();
    const { provider, clock } = rig(serial);
    const driver = provider.create(locationChannel('gps', 5000));
    serial.last.deliverText(epoch(0));
    clock.advance(5000);
    assert.ok(driver.sample().ok, 'a fix exactly timeout old is still reported');
    clock.advance(1);
    assert.deepEqual(driver.sample(), { ok: false, errno: -110 });
    serial.last.deliverText(epoch(6));
    assert.ok(driver.sample().ok);
  });

  it('keeps timing out on GSV and GSA alone: only a fresh position proves the fix', () => {
    const serial = new FakeSerial();
    const { provider, clock } = rig(serial);
    const driver = provider.create(locationChannel('gps', 2000));
    serial.last.deliverText(epoch(0));
    for (let i = 0; i < 5; i++) {
      clock.advance(1000);
      serial.last.deliverText(nmea('GNGSA,A,3,01,11,31,14,22,32,04,25,03,,,,1.56,0.91,1.27'));
      serial.last.deliverText(nmea('GPGSV,1,1,01,01,53,280,36'));
    }
    assert.deepEqual(driver.sample(), { ok: false, errno: -110 });
  });

  it('reports -ETIMEDOUT at once when the receiver declares the fix lost', () => {
    const serial = new FakeSerial();
    const { provider } = rig(serial);
    const driver = provider.create(locationChannel());
    serial.last.deliverText(epoch(0));
    assert.ok(driver.sample().ok);
    serial.last.deliverText(nmea('GNRMC,120001.00,V,,,,,,,180315,,,N'));
    assert.deepEqual(driver.sample(), { ok: false, errno: -110 });
  });

  it('rejects a channel of another type (a programming error), and a port that cannot be opened (ENODEV)', () => {
    const { provider } = rig();
    const pin = { ...locationChannel(), type: 'digitalInput', pin: 4 } as unknown as Channel;
    const wrong = assert.throws(() => provider.create(pin), 'internal') as AgentError;
    assert.equal(wrong.message, 'location: got a digitalInput channel');
    const broken: Serial = {
      open: () => {
        throw new Error('no such device');
      },
    };
    const other = rig(broken).provider;
    const error = assert.throws(() => other.create(locationChannel()), 'pin.unavailable');
    assert.ok(error instanceof AgentError && error.errno === -19);
  });
});
