/** The desired-state apply path (decisions 5) and the resync read. */
import { readDesired } from '../../../src/agent/desired.js';
import { errorSample, okSample, type ChannelDriverProvider, type Sample } from '../../../src/agent/driver.js';
import { Errno } from '../../../src/errno.js';
import { assert } from '../../support/assert.js';
import { ch, world } from './harness.js';

const T0 = Date.UTC(2026, 0, 1);

const outputs = [
  ch('relay', 'digitalOutput', { pin: 5, scanInterval: 1000, transmitEvents: [{ type: 'change' }] }),
  ch('dimmer', 'analogOutput', {
    pin: 18,
    scanInterval: 1000,
    scaleGain: 0.09775171065493646,
    transmitEvents: [{ type: 'change' }],
  }),
  ch('door', 'digitalInput', { pin: 4, scanInterval: 1000, transmitEvents: [{ type: 'change' }] }),
  ch('note', 'custom', { customType: 'number', scanInterval: 1000, transmitEvents: [{ type: 'change' }] }),
  ch('uptime', 'custom', { customType: 'decimal', readOnly: true, scanInterval: 1000 }),
];

function reported(w: ReturnType<typeof world>, key: string): unknown[] {
  return w.http.statesOf(`${key}.reported`).map((s) => (s.error === undefined ? s.value : s.error));
}

describe('agent: desired values', () => {
  it('writes outputs (inverse scaling) and echoes the value read back, once', async () => {
    const w = world({ channels: outputs });
    await w.agent.start();
    await w.clock.advanceAsync(10);
    await w.agent.applyDesired({ key: 'relay', value: true, timestampMs: T0 + 1 });
    await w.agent.applyDesired({ key: 'dimmer', value: 50, timestampMs: T0 + 1 });
    await w.clock.advanceAsync(3000);
    assert.deepEqual(w.pins.writes, [
      { pin: 5, value: true },
      { pin: 18, value: 512 },
    ]);
    assert.deepEqual(reported(w, 'relay'), [false, true], 'echo, and no second report from the next scan');
    assert.deepEqual(reported(w, 'dimmer'), [0, 50.048875855]);
    assert.equal(w.agent.counters.desiredApplied, 2);
    w.agent.stop();
  });

  it('tells onDesired and onReport of each echo, so that a display shows what the service gets', async () => {
    const desired: Array<[string, unknown, Sample]> = [];
    const reports: Array<[string, Sample]> = [];
    const w = world({
      channels: outputs,
      agent: {
        onDesired: (key, value, echo) => desired.push([key, value, { ...echo }]),
        onReport: (key, sample) => reports.push([key, { ...sample }]),
      },
    });
    await w.agent.start();
    await w.clock.advanceAsync(10);
    reports.length = 0;
    await w.agent.applyDesired({ key: 'relay', value: true, timestampMs: T0 + 1 });
    await w.agent.applyDesired({ key: 'door', value: true, timestampMs: T0 + 1 });
    assert.deepEqual(desired, [
      ['relay', true, okSample(true)],
      ['door', true, errorSample(Errno.EROFS)],
    ]);
    assert.deepEqual(reports, [
      ['relay', okSample(true)],
      ['door', errorSample(Errno.EROFS)],
    ]);
    w.agent.stop();
  });

  it('answers -EROFS, -EINVAL and -ERANGE, and leaves the pin alone', async () => {
    const w = world({ channels: outputs });
    await w.agent.start();
    await w.clock.advanceAsync(10);
    await w.agent.applyDesired({ key: 'door', value: true, timestampMs: T0 });
    await w.agent.applyDesired({ key: 'uptime', value: 3, timestampMs: T0 });
    await w.agent.applyDesired({ key: 'relay', value: 'on', timestampMs: T0 });
    await w.agent.applyDesired({ key: 'dimmer', value: 120, timestampMs: T0 });
    await w.agent.applyDesired({ key: 'note', value: 1.5, timestampMs: T0 });
    await w.clock.advanceAsync(1100);
    assert.deepEqual(w.pins.writes, []);
    assert.deepEqual(reported(w, 'door').slice(1), [Errno.EROFS]);
    assert.deepEqual(reported(w, 'uptime'), [Errno.EROFS]);
    assert.deepEqual(reported(w, 'relay').slice(1, 2), [Errno.EINVAL]);
    assert.deepEqual(reported(w, 'dimmer').slice(1, 2), [Errno.ERANGE]);
    assert.deepEqual(reported(w, 'note'), [Errno.EINVAL]);
    w.agent.stop();
  });

  it("takes values of the channel's own type only (0/1 for booleans): a string is -EINVAL", async () => {
    const w = world({ channels: outputs });
    await w.agent.start();
    await w.clock.advanceAsync(10);
    await w.agent.applyDesired({ key: 'relay', value: 'true', timestampMs: T0 });
    await w.agent.applyDesired({ key: 'dimmer', value: '50', timestampMs: T0 });
    await w.agent.applyDesired({ key: 'relay', value: 1, timestampMs: T0 + 1 });
    await w.agent.applyDesired({ key: 'note', value: 'x', timestampMs: T0 });
    await w.clock.advanceAsync(1100);
    assert.deepEqual(w.pins.writes, [{ pin: 5, value: true }]);
    assert.deepEqual(reported(w, 'relay').slice(1), [Errno.EINVAL, true]);
    assert.deepEqual(reported(w, 'dimmer').slice(1), [Errno.EINVAL]);
    assert.deepEqual(reported(w, 'note'), [Errno.EINVAL]);
    w.agent.stop();
  });

  it('answers -EINVAL for a number that is not finite, before any inverse scaling', async () => {
    const w = world({ channels: outputs });
    await w.agent.start();
    await w.clock.advanceAsync(10);
    await w.agent.applyDesired({ key: 'dimmer', value: NaN, timestampMs: T0 });
    await w.agent.applyDesired({ key: 'note', value: Infinity, timestampMs: T0 });
    assert.deepEqual(w.pins.writes, []);
    assert.deepEqual(reported(w, 'dimmer').slice(1), [Errno.EINVAL]);
    assert.deepEqual(reported(w, 'note'), [Errno.EINVAL]);
    w.agent.stop();
  });

  it('reads a .desired State record and nothing else (the one reader of the wire form)', () => {
    assert.deepEqual(readDesired({ channel: 'prod:gps.lat.desired', value: 1.5, timestamp: 1767225600.25 }), {
      key: 'gps.lat',
      value: 1.5,
      timestampMs: 1767225600250,
    });
    const others: unknown[] = [
      { channel: 'prod:relay.reported', value: true, timestamp: 1 },
      { channel: 'prod:.desired', value: true, timestamp: 1 },
      { channel: 'prod:relay.desired', value: null, timestamp: 1 },
      { channel: 'prod:relay.desired', value: { on: true }, timestamp: 1 },
      { channel: 'prod:relay.desired', value: true, timestamp: '2026-01-01T00:00:00Z' },
      { channel: 'prod:relay.desired', value: true },
      { channel: 7, value: true, timestamp: 1 },
      'prod:relay.desired',
      null,
    ];
    for (const raw of others) assert.equal(readDesired(raw), undefined, JSON.stringify(raw));
  });

  it('ignores a record not newer than the last applied to that channel', async () => {
    const w = world({ channels: outputs });
    await w.agent.start();
    await w.agent.applyDesired({ key: 'relay', value: true, timestampMs: T0 + 2000 });
    await w.agent.applyDesired({ key: 'relay', value: false, timestampMs: T0 + 1000 });
    await w.agent.applyDesired({ key: 'relay', value: false, timestampMs: T0 + 2000 });
    assert.deepEqual(w.pins.writes, [{ pin: 5, value: true }]);
    assert.equal(w.agent.counters.desiredIgnored, 2);
    w.agent.stop();
  });

  it('tells the application about a desired custom value', async () => {
    const w = world({ channels: outputs });
    const heard: unknown[] = [];
    w.custom.onDesired((key, value) => heard.push([key, value]));
    await w.agent.start();
    await w.agent.applyDesired({ key: 'note', value: 42, timestampMs: T0 });
    await w.clock.advanceAsync(1100);
    assert.deepEqual(heard, [['note', 42]]);
    assert.deepEqual(reported(w, 'note'), [42]);
    w.agent.stop();
  });

  it('resyncs from states/read/last, applying what is newer and skipping the rest', async () => {
    const w = world({ channels: outputs });
    await w.agent.start();
    await w.agent.applyDesired({ key: 'relay', value: true, timestampMs: T0 + 5000 });
    w.http.desired = [
      { channel: 'prod:relay.desired', value: false, timestamp: (T0 + 4000) / 1000, entity: 'x', aggregated: 'last' },
      { channel: 'prod:dimmer.desired', value: 100, timestamp: (T0 + 6000) / 1000 },
      { channel: 'prod:gps.lat.desired', value: 1, timestamp: T0 / 1000 },
      { channel: 'prod:broken.desired', timestamp: 1 },
    ];
    await w.agent.resyncDesired();
    assert.deepEqual(w.pins.writes, [
      { pin: 5, value: true },
      { pin: 18, value: 1023 },
    ]);
    const req = w.http.requests.find((r) => r.url.includes('/states/read/last'));
    assert.match(req?.url ?? '', /device=dev&channels=\*\.desired/);
    assert.equal(w.logger.find('warn', 'skipped').length, 1);
    w.agent.stop();
  });

  it('refuses a desired location sub-channel with -EROFS on its own state', async () => {
    const gps: ChannelDriverProvider = {
      types: ['location'],
      create: () => ({ sample: (): Sample => okSample({ lat: 1, lon: 2, sats: 7 }), close: () => undefined }),
    };
    const w = world({ channels: [ch('gps', 'location', { scanInterval: 1000 })], extraProviders: [gps] });
    await w.agent.start();
    await w.clock.advanceAsync(10);
    await w.agent.applyDesired({ key: 'gps.lat', value: 3, timestampMs: T0 });
    await w.clock.advanceAsync(1100);
    assert.deepEqual(reported(w, 'gps.lat'), [1, Errno.EROFS]);
    assert.deepEqual(reported(w, 'gps.sats'), [7]);
    assert.equal(w.http.statesOf('gps.alt.reported').length, 0, 'absent fields are not reported');
    assert.deepEqual(
      w.http.measurements.map((m) => [m.metric, m.value]),
      [['gps', { lat: 1, lon: 2, sats: 7 }]],
    );
    w.agent.stop();
  });
});

describe('agent: asynchronous drivers', () => {
  it('never overlaps scans of one channel, and stamps the sample at its scan', async () => {
    let inFlight = 0;
    let maxInFlight = 0;
    const resolvers: Array<(s: Sample) => void> = [];
    const bus: ChannelDriverProvider = {
      types: ['modbus'],
      create: () => ({
        sample: () => {
          inFlight++;
          maxInFlight = Math.max(maxInFlight, inFlight);
          return new Promise<Sample>((resolve) => resolvers.push(resolve));
        },
        close: () => undefined,
      }),
    };
    const w = world({
      channels: [
        ch('flow', 'modbus', {
          bus: 'rs485',
          deviceAddress: 1,
          registerType: 'inputRegister',
          registerAddress: 0,
          dataType: 'uint16',
          scaleGain: 0.5,
        }),
      ],
      extraProviders: [bus],
    });
    w.http.channels = {
      buses: [{ uid: 'b', key: 'rs485', name: 'RS-485', type: 'modbus' }],
      channels: (w.http.channels as { channels: unknown[] }).channels,
    };
    await w.agent.start();
    await w.clock.advanceAsync(350); // scans due at 0..300; only the first is in flight
    assert.equal(resolvers.length, 1);
    assert.equal(w.agent.counters.overruns, 3);
    inFlight--;
    resolvers.shift()!(okSample(10));
    await w.clock.advanceAsync(50); // scan at 400 starts the next read
    inFlight--;
    resolvers.shift()!(errorSample(Errno.ETIMEDOUT));
    await w.clock.advanceAsync(1200);
    assert.equal(maxInFlight, 1);
    assert.deepEqual(reported(w, 'flow').slice(0, 2), [5, Errno.ETIMEDOUT]);
    const stamps = w.http.statesOf('flow.reported').map((s) => s.timestamp);
    assert.deepEqual(stamps.slice(0, 2), [T0 / 1000, (T0 + 400) / 1000]);
    w.agent.stop();
  });
});
