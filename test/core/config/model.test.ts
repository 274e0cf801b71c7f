/**
 * channelOf: a provider takes a channel as one of its own types (narrowed), and
 * any other type is a programming error, AgentError `internal`, naming both.
 */
import { channelOf, type Channel } from '../../../src/config/model.js';
import { AgentError } from '../../../src/errors.js';
import { ModbusProvider } from '../../../src/modbus/provider.js';
import { PinChannelProvider } from '../../../src/pins/provider.js';
import { FakeClock } from '../../fakes/fake-clock.js';
import { FakeLogger } from '../../fakes/fake-logger.js';
import { FakePins } from '../../fakes/fake-pins.js';
import { FakeSerial } from '../../fakes/fake-serial.js';
import { assert } from '../../support/assert.js';

const common = { uid: 'u1', key: 'k', name: '', scaleGain: 1, scaleOffset: 0, scanIntervalMs: 1000, visible: true };
const relay = { ...common, type: 'digitalOutput', pin: 5, transmitEvents: [] } as unknown as Channel;
const note = {
  ...common,
  type: 'custom',
  customType: 'number',
  readOnly: false,
  transmitEvents: [],
} as unknown as Channel;

describe('config/model channelOf', () => {
  it('gives back the channel itself when its type is one of the types', () => {
    assert.equal(channelOf(relay, ['digitalInput', 'digitalOutput']), relay);
    assert.equal(channelOf(note, ['custom']), note);
  });

  it('throws internal, naming the types and the channel type, for any other type', () => {
    const one = assert.throws(() => channelOf(note, ['modbus']), 'internal') as AgentError;
    assert.equal(one.message, 'modbus: got a custom channel');
    const two = assert.throws(() => channelOf(relay, ['location', 'custom']), 'internal') as AgentError;
    assert.equal(two.message, 'location,custom: got a digitalOutput channel');
  });

  it('is what the providers check: a Modbus provider given a pin channel, a pin provider a custom one', () => {
    const modbus = new ModbusProvider({
      serial: new FakeSerial(),
      clock: new FakeClock(),
      logger: new FakeLogger(),
      ports: {},
    });
    const e = assert.throws(() => modbus.create(relay), 'internal') as AgentError;
    assert.equal(e.message, 'modbus: got a digitalOutput channel');
    const pins = new PinChannelProvider(new FakePins());
    const p = assert.throws(() => pins.create(note), 'internal') as AgentError;
    assert.equal(p.message, `${pins.types.join()}: got a custom channel`);
  });
});
