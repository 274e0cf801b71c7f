import assert from 'node:assert/strict';
import type { Location, Sample } from '../../src/agent/driver.js';
import { GnssLocationProvider } from '../../src/gnss/location-provider.js';
import { CountingNmeaParser, countInto, newNmeaCounters } from '../../src/gnss/nmea-parser.js';
import { logEpochs } from '../../host-sim/gnss/epoch-sources.js';
import { SimulatedReceiver, type SimulatedReceiverOptions } from '../../host-sim/gnss/receiver.js';
import { Route, distanceM } from '../../host-sim/gnss/route.js';
import { SimulatedGnssSerial } from '../../host-sim/gnss/serial.js';
import { dops } from '../../host-sim/gnss/sky.js';
import { FakeClock } from '../fakes/fake-clock.js';
import { FakeLogger } from '../fakes/fake-logger.js';
import { FakeSerial } from '../fakes/fake-serial.js';
import { locationChannel } from '../core/gnss/logs.js';
import { readFixture } from '../support/fixtures.js';

const ROUTE = {
  waypoints: [
    { lat: 59.3293, lon: 18.0686, altM: 20 },
    { lat: 59.3326, lon: 18.0649, altM: 30 },
    { lat: 59.3346, lon: 18.0717, altM: 25 },
  ],
  speedMps: 12,
};

function rig(options: Omit<SimulatedReceiverOptions, 'clock'>, timeoutMs = 3000) {
  const clock = new FakeClock();
  const receiver = new SimulatedReceiver({ clock, ...options });
  const serial = new SimulatedGnssSerial(receiver);
  const counters = newNmeaCounters();
  const provider = new GnssLocationProvider({
    serial,
    port: { port: 2, baudRate: 9600 },
    clock,
    logger: new FakeLogger(),
    tally: countInto(counters),
  });
  const driver = provider.create(locationChannel('gps', timeoutMs));
  return { clock, receiver, provider, driver, serial, counters };
}

function loc(sample: Sample): Location {
  assert.ok(sample.ok, `expected a location, got ${JSON.stringify(sample)}`);
  return sample.value as Location;
}

describe('gnss: simulated receiver', () => {
  it('drives a route at 1 Hz with valid checksums, realistic DOPs, and positions along the route', () => {
    const { clock, driver, serial, counters } = rig({ route: ROUTE });
    assert.deepEqual(serial.lastOptions, { port: 2, baudRate: 9600 });
    const truth = new Route(ROUTE);
    for (let s = 0; s <= 60; s++) {
      clock.advance(s === 0 ? 0 : 1000);
      const l = loc(driver.sample());
      const expected = truth.at(s * 1000);
      assert.ok(distanceM({ lat: l.lat ?? NaN, lon: l.lon ?? NaN }, expected) < 0.1, `t=${s}s: off the route`);
      assert.ok(Math.abs((l.alt ?? NaN) - expected.altM) < 0.06);
      assert.ok((l.sats ?? 0) >= 4 && (l.sats ?? 0) <= 12);
      assert.ok((l.hdop ?? 0) > 0.4 && (l.hdop ?? 99) < 5, `hdop ${l.hdop}`);
      assert.ok((l.pdop ?? 0) >= (l.hdop ?? 0) && (l.pdop ?? 0) >= (l.vdop ?? 0));
    }
    assert.equal(counters.failed, 0);
    assert.equal(counters.malformed, 0);
  });

  it('scripts fix loss and its return', () => {
    const { clock, driver } = rig({ route: ROUTE, faults: { fixLoss: [{ fromS: 5, toS: 10 }] } }, 60_000);
    clock.advance(4000);
    assert.ok(driver.sample()?.ok);
    clock.advance(1000);
    assert.deepEqual(driver.sample(), { ok: false, errno: -110 });
    clock.advance(5000);
    assert.ok(driver.sample()?.ok);
  });

  it('scripts a stuck UTC time (lost at once) and silence (lost after the channel timeout)', () => {
    const stuck = rig({ route: ROUTE, faults: { stuckTime: [{ fromS: 3, toS: 6 }] } }, 60_000);
    stuck.clock.advance(3000);
    assert.deepEqual(stuck.driver.sample(), { ok: false, errno: -110 });
    stuck.clock.advance(3000);
    assert.ok(stuck.driver.sample()?.ok);

    const quiet = rig({ route: ROUTE, faults: { silence: [{ fromS: 2, toS: 100 }] } }, 3000);
    quiet.clock.advance(4000);
    assert.ok(quiet.driver.sample()?.ok, 'last fix at 1 s is 3 s old');
    quiet.clock.advance(1);
    assert.deepEqual(quiet.driver.sample(), { ok: false, errno: -110 });
  });

  it('survives garbage bytes and line noise: lines fail, no wrong position is ever reported', () => {
    const { clock, driver, counters } = rig(
      { route: ROUTE, faults: { garbageBytesPerEpoch: 40, noiseRate: 0.002, seed: 7 }, chunkBytes: 13 },
      60_000,
    );
    const truth = new Route(ROUTE);
    let reported = 0;
    for (let s = 0; s < 120; s++) {
      clock.advance(s === 0 ? 0 : 1000);
      const sample = driver.sample();
      if (!sample.ok) continue;
      reported++;
      const l = sample.value as Location;
      const near = [0, 1, 2, 3, 4, 5].some(
        (back) => distanceM({ lat: l.lat ?? NaN, lon: l.lon ?? NaN }, truth.at(Math.max(0, s - back) * 1000)) < 0.1,
      );
      assert.ok(near, `t=${s}s: a position that the route never had`);
    }
    assert.ok(reported > 60, `only ${reported} good samples`);
    assert.ok(counters.failed > 10, 'the noise did break lines');
  });

  it('replays a recorded log one epoch per second, sentence for sentence', () => {
    const text = readFixture('gnss-logs/neo-m8n.log');
    const clock = new FakeClock();
    const receiver = new SimulatedReceiver({ clock, log: text, chunkBytes: 5 });
    const serial = new FakeSerial();
    const port = serial.open({ port: 1, baudRate: 9600 }, { onData: (b) => viaSim.push(b) });
    const viaSim = new CountingNmeaParser({ onLine: () => true });
    const direct = new CountingNmeaParser({ onLine: () => true });
    receiver.attach(port);
    clock.advance(0);
    assert.equal(receiver.epochs, 1);
    clock.advance(1000 * logEpochs(text).length);
    direct.push(
      Buffer.from(
        text
          .split('\n')
          .filter((l) => !l.startsWith('#'))
          .join('\n'),
      ),
    );
    assert.deepEqual(viaSim.counters, direct.counters);
    clock.advance(5000);
    assert.equal(receiver.epochs, logEpochs(text).length, 'silent at the end of the log');
  });

  it('gives garbage, never a sentence, when the port is opened at the wrong baud rate', () => {
    const clock = new FakeClock();
    const receiver = new SimulatedReceiver({ clock, route: ROUTE });
    const serial = new SimulatedGnssSerial(receiver, 38400);
    const counters = newNmeaCounters();
    const provider = new GnssLocationProvider({
      serial,
      port: { port: 2, baudRate: 9600 },
      clock,
      logger: new FakeLogger(),
      tally: countInto(counters),
    });
    const driver = provider.create(locationChannel('gps', 3000));
    clock.advance(10_000);
    assert.deepEqual(driver.sample(), { ok: false, errno: -110 });
    assert.equal(counters.passed, 0);
    assert.ok(counters.noiseBytes > 1000);
    provider.close();
    clock.advance(5000);
    assert.equal(receiver.epochs, 11, 'closing the port detaches the receiver');
  });

  it('refuses nonsense options, and computes smaller DOPs from more satellites', () => {
    const clock = new FakeClock();
    assert.throws(() => new SimulatedReceiver({ clock }), RangeError);
    assert.throws(() => new SimulatedReceiver({ clock, route: { waypoints: [], speedMps: 1 } }), RangeError);
    assert.throws(() => new SimulatedReceiver({ clock, log: '# only a header\n' }), RangeError);
    const four = [0, 90, 180, 270].map((az, i) => ({ elevationDeg: 15 + i * 15, azimuthDeg: az }));
    const withZenith = [...four, { elevationDeg: 90, azimuthDeg: 0 }];
    assert.ok(dops(withZenith).pdop < dops(four).pdop);
    assert.ok(Number.isNaN(dops(four.slice(0, 3)).pdop));
  });
});
