/** The pin channel provider over the Pins port. */
import type { Sample } from '../../../src/agent/driver.js';
import type { PinChannel } from '../../../src/config/model.js';
import { Errno } from '../../../src/errno.js';
import { PinChannelProvider } from '../../../src/pins/provider.js';
import { FakePins } from '../../fakes/fake-pins.js';
import { assert } from '../../support/assert.js';

function pin(type: PinChannel['type'], n: number): PinChannel {
  return {
    key: 'k',
    type,
    pin: n,
    scaleGain: 1,
    scaleOffset: 0,
    scanIntervalMs: 100,
    transmitEvents: [],
  };
}

const copy = (s: Sample | Promise<Sample> | undefined): unknown => JSON.parse(JSON.stringify(s)) as unknown;

describe('pin channel provider', () => {
  it('reads inputs into one reused sample object', () => {
    const pins = new FakePins();
    const provider = new PinChannelProvider(pins);
    const door = provider.create(pin('digitalInput', 4));
    const temp = provider.create(pin('analogInput', 34));
    pins.digital.set(4, true);
    pins.analog.set(34, 612);
    const a = door.sample();
    assert.deepEqual(copy(a), { ok: true, value: true });
    assert.deepEqual(copy(temp.sample()), { ok: true, value: 612 });
    pins.digital.set(4, false);
    assert.equal(door.sample(), a, 'the same object every scan');
    assert.equal(door.applyDesired, undefined, 'inputs take no desired values');
  });

  it('drives the four pin types and refuses any other type as a programming error', () => {
    const provider = new PinChannelProvider(new FakePins());
    assert.deepEqual([...provider.types].sort(), ['analogInput', 'analogOutput', 'digitalInput', 'digitalOutput']);
    const gps = { ...pin('digitalInput', 1), type: 'location' as const, timeoutMs: 1000 };
    const { pin: _pin, ...location } = gps;
    assert.throws(() => provider.create(location), 'internal');
  });

  it('reports -EIO when a read throws, and rejects a channel whose pin cannot open', () => {
    const pins = new FakePins();
    const provider = new PinChannelProvider(pins);
    const door = provider.create(pin('digitalInput', 4));
    pins.failing.add(4);
    assert.deepEqual(copy(door.sample()), { ok: false, errno: Errno.EIO });
    pins.unavailable.add(7);
    const e = assert.throws(() => provider.create(pin('digitalInput', 7)), 'pin.unavailable');
    assert.equal((e as { errno?: number }).errno, Errno.EIO);
  });

  it('drives outputs with the values the agent hands them and reads back what they are driven to', async () => {
    const pins = new FakePins();
    const provider = new PinChannelProvider(pins);
    const relay = provider.create(pin('digitalOutput', 5));
    const dimmer = provider.create(pin('analogOutput', 18));
    assert.deepEqual(copy(await relay.applyDesired?.(true)), { ok: true, value: true });
    assert.deepEqual(dimmer.rawRange, { min: 0, max: 1023, integer: true });
    assert.deepEqual(copy(await dimmer.applyDesired?.(700)), { ok: true, value: 700 });
    // A value of another type or beyond rawRange never reaches a driver: the agent answers -EINVAL or
    // -ERANGE first (ChannelSlot.write; test/core/agent/desired.test.ts).
    assert.deepEqual(pins.writes, [
      { pin: 5, value: true },
      { pin: 18, value: 700 },
    ]);
    relay.close();
    assert.equal(pins.open.has(5), false);
  });
});
