/** A serial port that fails is reopened with back-off on the injected clock; GNSS recovers through it. */
import { AgentError } from '../../../src/errors.js';
import { GnssLocationProvider } from '../../../src/gnss/location-provider.js';
import { ReopeningSerial, type ReopeningPort } from '../../../src/serial/reopening-serial.js';
import { FakeClock } from '../../fakes/fake-clock.js';
import { FakeLogger } from '../../fakes/fake-logger.js';
import { FakeSerial } from '../../fakes/fake-serial.js';
import { assert } from '../../support/assert.js';
import { locationChannel, nmea } from '../gnss/logs.js';

/** Reopen delays without jitter: 100, 200, 400 ms ... */
const doubling = { nextDelayMs: (attempt: number): number => 100 * 2 ** (attempt - 1) };
const gone = (): AgentError => new AgentError('network', 'serial /dev/ttyUSB0: closed (gone)');

function rig(): { clock: FakeClock; logger: FakeLogger; inner: FakeSerial; serial: ReopeningSerial } {
  const clock = new FakeClock();
  const logger = new FakeLogger();
  const inner = new FakeSerial();
  return { clock, logger, inner, serial: new ReopeningSerial(inner, clock, logger, { retry: doubling }) };
}

describe('serial/reopening-serial', () => {
  it('closes a failed port, reopens it after the back-off, and passes bytes again', () => {
    const { clock, logger, inner, serial } = rig();
    const data: number[] = [];
    const errors: string[] = [];
    const port = serial.open(
      { port: '/dev/ttyUSB0', baudRate: 9600 },
      { onData: (b) => data.push(...b), onError: (e) => errors.push(e.code) },
    ) as ReopeningPort;
    const first = inner.last;
    first.deliver([1]);
    first.fail(gone());
    assert.ok(first.closed, 'the failed port is closed');
    assert.equal(port.current, 'down');
    port.write(Uint8Array.of(9)); // dropped while down
    assert.equal(first.written.length, 0);
    inner.failOpen = new Error('ENOENT: no such file or directory, open /dev/ttyUSB0');
    clock.advance(100); // attempt 1 finds no device
    assert.equal(inner.ports.length, 1);
    clock.advance(199);
    assert.equal(port.current, 'down');
    inner.failOpen = undefined;
    clock.advance(1); // attempt 2, 200 ms later, opens it
    assert.equal(inner.ports.length, 2);
    assert.equal(port.current, 'up');
    first.deliver([7]); // the old port's late bytes are ignored
    inner.last.deliver([2]);
    port.write(Uint8Array.of(3));
    assert.deepEqual(data, [1, 2]);
    assert.deepEqual([...inner.last.written[0]!], [3]);
    assert.deepEqual(errors, ['network'], 'the caller hears of the outage once');
    assert.equal(logger.find('warn', 'port failed; reopening').length, 1);
    assert.equal(logger.find('info', 'port back').length, 1);
    assert.equal(port.failures, 2);
  });

  it('starts down when the device is absent at open, and opens it once it appears', () => {
    const { clock, inner, serial } = rig();
    inner.failOpen = new Error('ENOENT');
    const port = serial.open({ port: '/dev/ttyUSB0', baudRate: 9600 }, { onData: () => undefined }) as ReopeningPort;
    assert.equal(port.current, 'down');
    inner.failOpen = undefined;
    clock.advance(100);
    assert.equal(port.current, 'up');
    assert.equal(port.reopens, 1);
  });

  it('throws a configuration error at once, and stops trying once closed', () => {
    const { clock, inner, serial } = rig();
    inner.failOpen = new AgentError('config.invalid', 'serial: on Node the port is a device path, got 2');
    assert.throws(() => serial.open({ port: 2, baudRate: 9600 }, { onData: () => undefined }), 'config.invalid');
    inner.failOpen = undefined;
    const port = serial.open({ port: '/dev/ttyUSB0', baudRate: 9600 }, { onData: () => undefined });
    inner.last.fail(gone());
    port.close();
    clock.advance(60000);
    assert.equal(inner.ports.length, 1, 'no reopen after close');
    assert.equal(clock.pending, 0);
  });

  it('a write that throws counts as a failure of the port', () => {
    const { clock, inner, serial } = rig();
    const port = serial.open({ port: '/dev/ttyUSB0', baudRate: 9600 }, { onData: () => undefined }) as ReopeningPort;
    inner.last.close(); // the fake throws on write once closed
    port.write(Uint8Array.of(1));
    assert.equal(port.current, 'down');
    clock.advance(100);
    assert.equal(port.current, 'up');
  });

  it('a GNSS receiver unplugged: -ETIMEDOUT once the fix is older than the timeout, then positions again', () => {
    const { clock, inner, serial } = rig();
    const provider = new GnssLocationProvider({
      serial,
      port: { port: '/dev/ttyUSB0', baudRate: 9600 },
      clock,
      logger: new FakeLogger(),
    });
    const driver = provider.create(locationChannel('gps', 3000));
    const fix = (s: number): string =>
      nmea(`GNRMC,1200${String(s).padStart(2, '0')}.00,A,4404.14063,N,12118.85478,W,0.1,,180315,,,A`) +
      nmea(`GNGGA,1200${String(s).padStart(2, '0')}.00,4404.14063,N,12118.85478,W,1,12,0.91,1147.2,M,-21.3,M,,`);
    inner.last.deliverText(fix(0));
    assert.equal(driver.sample().ok, true);
    inner.last.fail(gone());
    inner.failOpen = new Error('ENOENT');
    clock.advance(3001);
    assert.deepEqual(driver.sample(), { ok: false, errno: -110 });
    inner.failOpen = undefined;
    clock.advance(60000);
    inner.last.deliverText(fix(4));
    assert.equal(driver.sample().ok, true);
    provider.close();
  });
});
