/** The Modbus provider on a new configuration: an unchanged bus keeps its open line, a changed one is reopened. */
import { parseChannelList } from '../../../src/config/parse.js';
import { ModbusProvider } from '../../../src/modbus/provider.js';
import { FakeClock } from '../../fakes/fake-clock.js';
import { FakeLogger } from '../../fakes/fake-logger.js';
import { FakeSerial } from '../../fakes/fake-serial.js';
import { assert } from '../../support/assert.js';

const bus = (baudRate: number) => ({ uid: 'b', key: 'rs485', type: 'modbus', baudRate });
const flow = {
  uid: 'c1',
  key: 'flow',
  type: 'modbus',
  bus: 'rs485',
  deviceAddress: 1,
  registerType: 'holdingRegister',
  registerAddress: 0,
  dataType: 'uint16',
};

describe('modbus/provider: reconfiguration', () => {
  it('keeps the line of an unchanged bus and reopens a changed one at its new settings', () => {
    const serial = new FakeSerial();
    const provider = new ModbusProvider({
      serial,
      clock: new FakeClock(),
      logger: new FakeLogger(),
      ports: { rs485: { port: 'uart2' } },
    });
    const first = parseChannelList({ buses: [bus(9600)], channels: [flow] });
    provider.configure(first);
    provider.create(first.channels[0]!);
    assert.equal(serial.ports.length, 1);
    const slower = parseChannelList({ buses: [bus(9600)], channels: [{ ...flow, scanInterval: 500 }] });
    provider.configure(slower);
    provider.create(slower.channels[0]!);
    assert.equal(serial.last.closed, false, 'unchanged bus: the line stays open');
    assert.equal(serial.ports.length, 1, 'and is not opened again');
    const faster = parseChannelList({ buses: [bus(19200)], channels: [flow] });
    provider.configure(faster);
    assert.equal(serial.last.closed, true, 'changed bus: the old line is closed');
    provider.create(faster.channels[0]!);
    assert.equal(serial.ports.length, 2);
    assert.equal(serial.last.options.baudRate, 19200, 'reopened at the new baud rate');
    provider.configure(parseChannelList({ buses: [], channels: [] }));
    assert.equal(serial.last.closed, true, 'a removed bus is closed');
  });
});
