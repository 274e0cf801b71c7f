/**
 * The firmware's board features (targets/moddable/feature*.ts) on Node: a
 * feature starts its provider only when the board configuration turns it on,
 * on the UART the configuration names, and a configured feature the firmware
 * does not link is named in the log (its channels report -EOPNOTSUPP).
 * That the pins-only bundle links no GNSS and no Modbus module is checked by
 * `npm run size:check`.
 */
import { strict as assert } from 'node:assert';
import { parseChannelList } from '../../src/config/parse.js';
import { GnssLocationProvider } from '../../src/gnss/location-provider.js';
import { ModbusProvider } from '../../src/modbus/provider.js';
import { readBoardConfig, type BoardConfig, type SerialPins } from '../../targets/moddable/config.js';
import { startFeatures, type LinkedFeatures } from '../../targets/moddable/feature.js';
import { gnssFeature } from '../../targets/moddable/feature-gnss.js';
import { modbusFeature } from '../../targets/moddable/feature-modbus.js';
import { locationChannel } from '../core/gnss/logs.js';
import { FakeClock } from '../fakes/fake-clock.js';
import { FakeLogger } from '../fakes/fake-logger.js';
import { FakeSerial } from '../fakes/fake-serial.js';

const base = { serviceUrl: 'http://127.0.0.1:8080', deviceKey: 'demo-001', token: 'device-token-demo-001' };
const withUarts = readBoardConfig({ ...base, gnssPort: 2, gnssBaud: 38400, modbusPort: 1 }, () => undefined);
const pinsOnly = readBoardConfig(base, () => undefined);

/** The features of `linked` that start on `board`, with the UARTs they opened and the log. */
function start(board: BoardConfig, linked: Omit<LinkedFeatures, 'serial'> | undefined) {
  const serial = new FakeSerial();
  const logger = new FakeLogger();
  let uarts = 0;
  let pins: Readonly<Record<string, SerialPins>> | undefined;
  const features = linked && {
    ...linked,
    serial: (uartPins: Readonly<Record<string, SerialPins>>) => {
      uarts++;
      pins = uartPins;
      return serial;
    },
  };
  const providers = startFeatures(board, features, new FakeClock(), logger);
  const missing = logger.find('warn', 'feature not in this firmware').map((l) => l.fields?.feature);
  return { providers, serial, uarts, missing, pins };
}

const all = { gnss: gnssFeature, modbus: modbusFeature };

describe('moddable board features', () => {
  it('names the configured features the firmware does not link', () => {
    assert.deepEqual(start(withUarts, undefined).missing, ['gnss', 'modbus']);
    assert.deepEqual(start(withUarts, {}).missing, ['gnss', 'modbus']);
    const gnssOnly = start(withUarts, { gnss: gnssFeature });
    assert.deepEqual(gnssOnly.missing, ['modbus']);
    assert.equal(gnssOnly.providers.length, 1);
    assert.deepEqual(start(withUarts, all).missing, []);
    assert.deepEqual(start(pinsOnly, undefined).missing, [], 'nothing configured, nothing missing');
  });

  it('starts no provider, and builds no UART, for a feature the board configuration leaves out', () => {
    const none = start(pinsOnly, all);
    assert.deepEqual(none.providers, []);
    assert.equal(none.uarts, 0);
    const both = start(withUarts, all);
    assert.equal(both.providers.length, 2);
    assert.equal(both.uarts, 1, "the features share the board's UARTs, built once");
  });

  it("gives the UARTs each configured feature's port with its pins, defaults or set", () => {
    assert.deepEqual(start(withUarts, all).pins, {
      2: { receive: 16, transmit: 17 },
      1: { receive: 26, transmit: 27 },
    });
    const gnssOnly = readBoardConfig({ ...base, gnssPort: 1, gnssRx: 4, gnssTx: 5 }, () => undefined);
    assert.deepEqual(start(gnssOnly, all).pins, { 1: { receive: 4, transmit: 5 } });
  });

  it('reads the GNSS receiver on the configured UART and baud rate', () => {
    const { providers, serial } = start(withUarts, { gnss: gnssFeature });
    const [provider] = providers;
    assert.ok(provider instanceof GnssLocationProvider);
    assert.equal(serial.ports.length, 0, 'the port opens with the first location channel');
    provider.create(locationChannel());
    assert.equal(serial.ports.length, 1);
    assert.deepEqual(
      { port: serial.ports[0]?.options.port, baudRate: serial.ports[0]?.options.baudRate },
      { port: 2, baudRate: 38400 },
    );
    provider.close();
  });

  it('opens the Modbus line of the configured bus on the configured UART, with its direction pin', () => {
    const { providers, serial } = start(
      { ...withUarts, modbusBus: 'field', modbusDirPin: 25 },
      { modbus: modbusFeature },
    );
    const [provider] = providers;
    assert.ok(provider instanceof ModbusProvider);
    const config = parseChannelList({
      buses: [{ uid: 'b', key: 'field', type: 'modbus', baudRate: 19200 }],
      channels: [
        {
          uid: 'c1',
          key: 'flow',
          type: 'modbus',
          bus: 'field',
          deviceAddress: 1,
          registerType: 'holdingRegister',
          registerAddress: 0,
          dataType: 'uint16',
        },
      ],
    });
    provider.configure(config);
    provider.create(config.channels[0]!);
    assert.equal(serial.ports.length, 1);
    assert.deepEqual(
      {
        port: serial.last.options.port,
        baudRate: serial.last.options.baudRate,
        directionPin: serial.last.options.directionPin,
      },
      { port: 1, baudRate: 19200, directionPin: 25 },
    );
    provider.close();
  });
});
