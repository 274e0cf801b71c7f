/** The agent end to end on fakes: configuration, sampling, transmit events, reporting, batching. */
import { Agent } from '../../../src/agent/agent.js';
import { AgentCore } from '../../../src/agent/agent-core.js';
import { Properties } from '../../../src/agent/properties.js';
import { Errno } from '../../../src/errno.js';
import { FakeLogger } from '../../fakes/fake-logger.js';
import { FakeStore } from '../../fakes/fake-store.js';
import { assert } from '../../support/assert.js';
import { ch, wireSeconds, world } from './harness.js';

describe('agent: configuration and reporting', () => {
  it('samples pins and reports per transmit events, batched, with correct timestamps', async () => {
    const w = world({
      channels: [
        ch('door', 'digitalInput', { pin: 4, transmitEvents: [{ type: 'change' }] }),
        ch('temp', 'analogInput', {
          pin: 34,
          scaleGain: 0.1,
          scaleOffset: -40,
          transmitEvents: [{ type: 'delta', minimalChange: 0.5 }],
        }),
      ],
    });
    w.pins.analog.set(34, 600);
    await w.agent.start();
    await w.clock.advanceAsync(250); // scans at 0, 100, 200
    w.pins.digital.set(4, true);
    w.pins.analog.set(34, 603); // +0.3: below delta
    await w.clock.advanceAsync(100); // scan at 300
    w.pins.analog.set(34, 606); // +0.6 from the last reported
    await w.clock.advanceAsync(100); // scan at 400
    assert.equal(w.http.states.length, 0, 'nothing sent before the batch is 1 s old');
    await w.clock.advanceAsync(1000);
    assert.deepEqual(w.http.statesOf('door.reported'), [
      { channel: 'door.reported', value: false, timestamp: wireSeconds(w.clock, 0) },
      { channel: 'door.reported', value: true, timestamp: wireSeconds(w.clock, 300) },
    ]);
    assert.deepEqual(
      w.http.statesOf('temp.reported').map((s) => [s.value, s.timestamp]),
      [
        [20, wireSeconds(w.clock, 0)],
        [20.6, wireSeconds(w.clock, 400)],
      ],
    );
    assert.equal(w.http.writeRequests, 1, 'one request carried all four records');
    assert.equal(w.agent.counters.sent, 4);
    assert.equal(w.agent.counters.sampled, 2 * 15);
    w.logger.assertNoErrors();
    w.agent.stop();
  });

  it('rejects a bad channel with -EINVAL, a type without provider with -EOPNOTSUPP; the others work', async () => {
    const w = world({
      channels: [
        ch('bad', 'analogInput', { scanInterval: 5, pin: 1 }),
        ch('gps', 'location'),
        ch('nopin', 'digitalInput', { pin: 99 }),
        ch('ok', 'digitalInput', { pin: 4 }),
      ],
    });
    w.pins.unavailable.add(99);
    await w.agent.start();
    await w.clock.advanceAsync(1000);
    assert.deepEqual(
      w.http.statesOf('bad.reported').map((s) => s.error),
      [Errno.EINVAL],
    );
    assert.deepEqual(
      w.http.statesOf('gps.lat.reported').map((s) => s.error),
      [Errno.EOPNOTSUPP],
    );
    assert.equal(w.http.states.filter((s) => s.channel?.startsWith('gps.') === true).length, 7);
    assert.deepEqual(
      w.http.statesOf('nopin.reported').map((s) => s.error),
      [Errno.EIO],
    );
    assert.ok(w.http.statesOf('ok.reported').length >= 10);
    assert.equal(w.logger.find('error', 'channel rejected').length, 2);
    assert.deepEqual(
      w.logger.find('warn', 'channel rejected').map((l) => l.fields?.['reason']),
      ['no provider for location'],
    );
    w.agent.stop();
  });

  it('reports a failing read as -EIO and the value again when it recovers', async () => {
    const w = world({ channels: [ch('door', 'digitalInput', { pin: 4, transmitEvents: [{ type: 'change' }] })] });
    await w.agent.start();
    await w.clock.advanceAsync(100);
    w.pins.failing.add(4);
    await w.clock.advanceAsync(200);
    w.pins.failing.delete(4);
    await w.clock.advanceAsync(1200);
    assert.deepEqual(
      w.http.statesOf('door.reported').map((s) => (s.error === undefined ? s.value : s.error)),
      [false, Errno.EIO, false],
    );
    w.agent.stop();
  });

  it('reloads the configuration on request, keeping transmit state when nothing changed', async () => {
    const w = world({ channels: [ch('door', 'digitalInput', { pin: 4, transmitEvents: [{ type: 'change' }] })] });
    await w.agent.start();
    await w.clock.advanceAsync(1100);
    await w.agent.reloadConfig();
    await w.clock.advanceAsync(1100);
    assert.equal(w.http.statesOf('door.reported').length, 1, 'same configuration: no new first sample');
    w.http.channels = {
      buses: [],
      channels: [ch('door', 'digitalInput', { pin: 5, transmitEvents: [{ type: 'change' }] })],
    };
    await w.agent.reloadConfig();
    await w.clock.advanceAsync(1100);
    assert.equal(w.http.statesOf('door.reported').length, 2, 'new configuration: first sample reported');
    assert.ok(!w.pins.open.has(4) && w.pins.open.has(5), 'old pin closed, new pin open');
    w.agent.stop();
  });

  it('publishes application measurements and custom values', async () => {
    const w = world({
      channels: [ch('note', 'custom', { customType: 'number', transmitEvents: [{ type: 'change' }] })],
    });
    await w.agent.start();
    w.custom.publish('note', 7);
    w.agent.writeMeasurement('energy', 12.5);
    await w.clock.advanceAsync(1200);
    assert.deepEqual(
      w.http.statesOf('note.reported').map((s) => s.value),
      [7],
    );
    assert.deepEqual(
      w.http.measurements.map((m) => [m.metric, m.value]),
      [['energy', 12.5]],
    );
    assert.throws(() => w.custom.publish('note', 1.5), 'config.invalid');
    assert.throws(() => w.custom.publish('nope', 1), 'config.invalid');
    w.agent.stop();
  });

  it('keeps and merges properties, telling the application', async () => {
    const store = new FakeStore();
    const properties = new Properties(store, new FakeLogger());
    const w = world({ channels: [], store, agent: { properties } });
    w.http.properties = { 'report-mode': 'normal', 'sample-rate': 1 };
    const seen: unknown[] = [];
    properties.onChange((_all, changed) => seen.push(changed));
    await w.agent.start();
    w.agent.updateProperties({ 'sample-rate': 5 }, false);
    assert.deepEqual(properties.values, { 'report-mode': 'normal', 'sample-rate': 5 });
    w.agent.updateProperties({ 'led-enabled': true }, true);
    assert.deepEqual(properties.values, { 'led-enabled': true });
    assert.deepEqual(
      new Properties(store, new FakeLogger()).values,
      { 'led-enabled': true },
      'cached for the next boot',
    );
    assert.deepEqual(seen, [
      { 'report-mode': 'normal', 'sample-rate': 1 },
      { 'sample-rate': 5 },
      { 'led-enabled': true },
    ]);
    w.agent.stop();
  });
});

describe('agent: without a property set (the firmware)', () => {
  it('reads its device uid but neither asks for properties nor keeps them', async () => {
    const w = world({ channels: [] });
    await w.agent.start();
    w.agent.updateProperties({ 'sample-rate': 5 }, false);
    assert.ok(w.http.requests.some((r) => r.url.includes('/devices/get')));
    assert.equal(w.http.requests.filter((r) => r.url.includes('/properties/get')).length, 0);
    assert.deepEqual(w.agent.device, { uid: 'dev-uid' });
    assert.deepEqual(w.store.keys('agent/properties'), []);
    w.agent.stop();
  });
});

describe('agent: display hooks (Agent, not the firmware core)', () => {
  it('shows onSample every scaled sample and onReport only those the transmit events let through', async () => {
    const sampled: Array<[string, unknown]> = [];
    const reported: Array<[string, unknown]> = [];
    const w = world({
      channels: [ch('temp', 'analogInput', { pin: 34, scaleGain: 0.1, transmitEvents: [{ type: 'change' }] })],
      agent: {
        onSample: (key, sample) => sampled.push([key, sample.ok ? sample.value : sample.errno]),
        onReport: (key, sample) => reported.push([key, sample.ok ? sample.value : sample.errno]),
      },
    });
    w.pins.analog.set(34, 600);
    await w.agent.start();
    await w.clock.advanceAsync(250); // scans at 0, 100, 200: one value
    assert.deepEqual(sampled, [
      ['temp', 60],
      ['temp', 60],
      ['temp', 60],
    ]);
    assert.deepEqual(reported, [['temp', 60]], 'an unchanged value is sampled, not reported');
    w.agent.stop();
  });

  it('refuses a negative or NaN configRefreshMs', () => {
    for (const configRefreshMs of [-1, NaN]) {
      assert.ok(assert.throws(() => world({ agent: { configRefreshMs } })) instanceof RangeError);
    }
  });

  it('leaves the application API out of the core the firmware builds', () => {
    for (const name of [
      'stop',
      'writeMeasurement',
      'flush',
      'reloadConfig',
      'updateProperties',
      'counters',
      'channelKeys',
    ]) {
      assert.ok(!(name in AgentCore.prototype), name);
      assert.ok(name in Agent.prototype, name);
    }
  });
});

describe('agent: first boot without the service', () => {
  it('retries the configuration with backoff and starts sampling once the service answers', async () => {
    const w = world({ channels: [ch('door', 'digitalInput', { pin: 4, transmitEvents: [{ type: 'change' }] })] });
    w.http.offline = true;
    await w.agent.start();
    assert.deepEqual(w.agent.channelKeys, []);
    assert.equal(w.logger.find('warn', 'config: not read').length, 1, 'the first failure only');
    await w.clock.advanceAsync(2500); // retries at +1000 and +2000 (fixedRetry) fail
    w.http.offline = false;
    await w.clock.advanceAsync(3000); // the next retry (+3000) succeeds
    assert.deepEqual(w.agent.channelKeys, ['door']);
    await w.clock.advanceAsync(1500);
    assert.equal(w.http.statesOf('door.reported').length, 1);
    w.agent.stop();
  });
});
