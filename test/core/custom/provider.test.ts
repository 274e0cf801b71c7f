/** Custom channels: the application publishes values; writable channels take desired values. */
import type { CustomChannel } from '../../../src/config/model.js';
import { CustomChannelDrivers } from '../../../src/custom/drivers.js';
import { CustomChannels, fitsCustomType } from '../../../src/custom/provider.js';
import { FakeLogger } from '../../fakes/fake-logger.js';
import { assert } from '../../support/assert.js';

function custom(key: string, customType: CustomChannel['customType'], readOnly: boolean): CustomChannel {
  return {
    key,
    type: 'custom',
    customType,
    readOnly,
    scaleGain: 1,
    scaleOffset: 0,
    scanIntervalMs: 1000,
    transmitEvents: [],
  };
}

describe('custom channels', () => {
  it('checks values against customType', () => {
    assert.equal(fitsCustomType(custom('a', 'boolean', true), true), true);
    assert.equal(fitsCustomType(custom('a', 'boolean', true), 1), false);
    assert.equal(fitsCustomType(custom('a', 'number', true), 3), true);
    assert.equal(fitsCustomType(custom('a', 'number', true), 3.5), false);
    assert.equal(fitsCustomType(custom('a', 'decimal', true), 3.5), true);
    assert.equal(fitsCustomType(custom('a', 'decimal', true), '3.5'), false);
  });

  it('samples nothing until published, then the latest value; keeps values published before the channel exists', () => {
    const logger = new FakeLogger();
    const provider = new CustomChannels(logger);
    provider.publish('uptime', 5); // configuration not read yet
    const uptime = provider.create(custom('uptime', 'decimal', true));
    assert.deepEqual(uptime.sample(), { ok: true, value: 5 });
    provider.publish('uptime', 6.5);
    assert.deepEqual(uptime.sample(), { ok: true, value: 6.5 });
    const fresh = provider.create(custom('note', 'number', false));
    assert.equal(fresh.sample(), undefined);
  });

  it('applies desired values on writable channels, tells the application, and survives a throwing listener', () => {
    const logger = new FakeLogger();
    const provider = new CustomChannels(logger);
    const heard: unknown[] = [];
    provider.onDesired(() => {
      throw new Error('application bug');
    });
    provider.onDesired((key, value) => heard.push([key, value]));
    const note = provider.create(custom('note', 'number', false));
    assert.deepEqual(note.applyDesired?.(42), { ok: true, value: 42 });
    assert.deepEqual(note.sample(), { ok: true, value: 42 });
    // A read-only channel or a value that does not fit never reaches the driver: the agent answers
    // -EROFS or -EINVAL first (ChannelSlot.write; test/core/agent/desired.test.ts).
    assert.deepEqual(heard, [['note', 42]]);
    assert.equal(logger.find('error', 'listener threw').length, 1);
  });
});

describe('custom channel drivers (the firmware links these alone)', () => {
  it('take desired values on writable channels and keep them across a reconfiguration', () => {
    const provider = new CustomChannelDrivers();
    const setpoint = provider.create(custom('setpoint', 'decimal', false));
    assert.equal(setpoint.sample(), undefined);
    assert.deepEqual(setpoint.applyDesired?.(21.5), { ok: true, value: 21.5 });
    setpoint.close();
    const again = provider.create(custom('setpoint', 'decimal', false));
    assert.deepEqual(again.sample(), { ok: true, value: 21.5 });
    const retyped = provider.create(custom('setpoint', 'boolean', false));
    assert.equal(retyped.sample(), undefined, 'a kept value that no longer fits is not applied');
    assert.equal('publish' in provider, false);
    assert.equal('onDesired' in provider, false, 'no application listens on a board');
  });

  it('refuse a channel of another type', () => {
    const provider = new CustomChannelDrivers();
    assert.throws(
      () => provider.create({ ...custom('x', 'number', true), type: 'digitalInput', pin: 1 } as never),
      'internal',
    );
  });
});

describe('custom channels: bounds', () => {
  it('refuses values for more unknown channels than it keeps before the configuration', () => {
    const provider = new CustomChannels(new FakeLogger());
    for (let i = 0; i < 64; i++) provider.publish(`c${i}`, i);
    assert.throws(() => provider.publish('one-too-many', 1), 'overflow');
    provider.publish('c0', 5); // a known early key may change
  });

  it('refuses unconfigured keys once configured, and values of the wrong type', () => {
    const provider = new CustomChannels(new FakeLogger());
    provider.configure({ buses: [], channels: [custom('n', 'number', true)], rejected: [] });
    assert.throws(() => provider.publish('other', 1), 'config.invalid');
    const n = provider.create(custom('n', 'number', true));
    assert.throws(() => provider.publish('n', 1.5), 'config.invalid');
    provider.publish('n', 2);
    assert.deepEqual(n.sample(), { ok: true, value: 2 });
  });
});
