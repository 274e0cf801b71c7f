/** ChannelSet's reload diff (a hashed settings signature per slot) and its configured / former keys. */
import { ChannelSet, hashText } from '../../../src/agent/channel-set.js';
import type { SampleSink } from '../../../src/agent/channel-slot.js';
import { createCounters } from '../../../src/agent/counters.js';
import type { ChannelDriver, ChannelDriverProvider, Sample } from '../../../src/agent/driver.js';
import type { Channel, ChannelType } from '../../../src/config/model.js';
import { parseChannelList } from '../../../src/config/parse.js';
import { Batcher, defaultBatchOptions } from '../../../src/report/batcher.js';
import { Reporter } from '../../../src/report/reporter.js';
import { Scheduler } from '../../../src/sched/scheduler.js';
import { WallTime } from '../../../src/time/wall-time.js';
import { FakeClock } from '../../fakes/fake-clock.js';
import { FakeLogger } from '../../fakes/fake-logger.js';
import { assert } from '../../support/assert.js';

/** Drives `modbus` and `digitalInput` channels with a constant; records what it created and closed. */
class CountingProvider implements ChannelDriverProvider {
  readonly types: readonly ChannelType[] = ['modbus', 'digitalInput'];
  readonly created: string[] = [];
  readonly closed: string[] = [];
  create(channel: Channel): ChannelDriver {
    this.created.push(channel.key);
    const sample: Sample = { ok: true, value: 1 };
    return { sample: () => sample, close: () => this.closed.push(channel.key) };
  }
}

function world(): { set: ChannelSet; provider: CountingProvider; clock: FakeClock; reported: string[] } {
  const clock = new FakeClock();
  const counters = createCounters();
  const reporter = new Reporter(
    new WallTime(clock),
    new Batcher(clock, defaultBatchOptions, () => undefined),
    counters,
  );
  const provider = new CountingProvider();
  const scheduler = new Scheduler(clock);
  const reported: string[] = [];
  const sink: SampleSink = {
    sampled: (slot, sample, at) => slot.decide(sample, at) && reported.push(slot.key) > 0,
    echoed: () => undefined,
  };
  const options = { providers: [provider], clock, logger: new FakeLogger() };
  const set = new ChannelSet(options, scheduler, sink, reporter, new WallTime(clock), counters);

  return { set, provider, clock, reported };
}

const bus = (baudRate: number): unknown => ({ uid: 'b', key: 'rs485', name: 'RS-485', type: 'modbus', baudRate });
const meter = {
  uid: 'u-m',
  key: 'meter',
  type: 'modbus',
  bus: 'rs485',
  deviceAddress: 1,
  registerType: 'holdingRegister',
  registerAddress: 0,
  dataType: 'uint16',
};
const door = { uid: 'u-d', key: 'door', type: 'digitalInput', pin: 4 };
const config = (baudRate: number, channels: unknown[]): ReturnType<typeof parseChannelList> =>
  parseChannelList({ buses: [bus(baudRate)], channels });

describe('channel set: reload diff', () => {
  it('keeps unchanged channels, restarts a channel whose bus changed, stops a removed one', () => {
    const w = world();
    w.set.apply(config(9600, [meter, door]));
    w.set.apply(config(9600, [meter, door]));
    assert.deepEqual(w.provider.created, ['meter', 'door'], 'the same settings: nothing restarts');
    w.set.apply(config(19200, [meter, door]));
    assert.deepEqual(w.provider.created, ['meter', 'door', 'meter'], 'the bus changed: its channel restarts');
    assert.deepEqual(w.provider.closed, ['meter']);
    w.set.apply(config(19200, [{ ...door, pin: 5 }]));
    assert.deepEqual([...w.provider.closed].sort(), ['door', 'meter', 'meter'], 'removed and changed channels stop');
    assert.deepEqual([...w.set.slots.keys()], ['door']);
    w.clock.advance(0);
    w.reported.length = 0;
    w.clock.advance(1000); // the default scan interval; no transmit events: every scan reports
    assert.deepEqual(w.reported, ['door'], 'one scheduler entry per running channel, no more');
  });

  it('knows configured keys (running or rejected) and keys configured before only', () => {
    const w = world();
    w.set.apply(config(9600, [meter, { ...door, pin: -1 }]));
    assert.ok(w.set.isConfigured('meter'));
    assert.ok(w.set.isConfigured('door'), 'a rejected channel is configured');
    assert.ok(!w.set.wasConfigured('door'));
    w.set.apply(config(9600, [door]));
    assert.ok(!w.set.isConfigured('meter'));
    assert.ok(w.set.wasConfigured('meter'));
    w.set.apply(config(9600, [meter, door]));
    assert.ok(!w.set.wasConfigured('meter'), 'configured again: no longer a former key');
  });
});

describe('hashText', () => {
  it('is an integer below 2^53, equal for equal texts, different for texts one character apart', () => {
    const a = hashText('{"key":"door","pin":4}');
    assert.equal(a, hashText('{"key":"door","pin":4}'));
    assert.ok(Number.isSafeInteger(a) && a >= 0, String(a));
    const seen = new Set<number>([a]);
    for (let pin = 0; pin < 1000; pin++) seen.add(hashText(`{"key":"door","pin":${pin + 5}}`));
    assert.equal(seen.size, 1001, 'no collision among 1,001 near-identical texts');
  });
});
