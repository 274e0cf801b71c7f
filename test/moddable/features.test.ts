/**
 * The firmware's board features (targets/moddable/feature*.ts) on Node: a
 * feature starts its provider only when the board configuration turns it on,
 * on the UART the configuration names, and a configured feature the firmware
 * does not link is named (startAgent warns; its channels report -EOPNOTSUPP).
 * That the pins-only bundle links no GNSS and no Modbus module is checked by
 * `npm run size:check`.
 */
import { strict as assert } from 'node:assert';
import { parseChannelList } from '../../src/config/parse.js';
import { GnssLocationProvider } from '../../src/gnss/location-provider.js';
import { ModbusProvider } from '../../src/modbus/provider.js';
import { readBoardConfig } from '../../targets/moddable/config.js';
import { missingFeatures } from '../../targets/moddable/feature.js';
import { gnssFeature } from '../../targets/moddable/feature-gnss.js';
import { modbusFeature } from '../../targets/moddable/feature-modbus.js';
import { locationChannel } from '../core/gnss/logs.js';
import { FakeClock } from '../fakes/fake-clock.js';
import { FakeLogger } from '../fakes/fake-logger.js';
import { FakeSerial } from '../fakes/fake-serial.js';

const base = { serviceUrl: 'http://127.0.0.1:8080', deviceKey: 'demo-001', token: 'device-token-demo-001' };
const withUarts = readBoardConfig({ ...base, gnssPort: 2, gnssBaud: 38400, modbusPort: 1 }, () => undefined);
const pinsOnly = readBoardConfig(base, () => undefined);

function ports(): { serial: FakeSerial; clock: FakeClock; logger: FakeLogger } {
  return { serial: new FakeSerial(), clock: new FakeClock(), logger: new FakeLogger() };
}

describe('moddable board features', () => {
  it('names the configured features the firmware does not link', () => {
    assert.deepEqual(missingFeatures(withUarts, []), ['gnss', 'modbus']);
    assert.deepEqual(missingFeatures(withUarts, [gnssFeature]), ['modbus']);
    assert.deepEqual(missingFeatures(withUarts, [gnssFeature, modbusFeature]), []);
    assert.deepEqual(missingFeatures(pinsOnly, []), [], 'nothing configured, nothing missing');
  });

  it('starts no provider for a feature the board configuration leaves out', () => {
    assert.equal(gnssFeature.provider(pinsOnly, ports()), undefined);
    assert.equal(modbusFeature.provider(pinsOnly, ports()), undefined);
  });

  it('reads the GNSS receiver on the configured UART and baud rate', () => {
    const p = ports();
    const provider = gnssFeature.provider(withUarts, p);
    assert.ok(provider instanceof GnssLocationProvider);
    assert.equal(p.serial.ports.length, 0, 'the port opens with the first location channel');
    provider.create(locationChannel());
    assert.equal(p.serial.ports.length, 1);
    assert.deepEqual(
      { port: p.serial.ports[0]?.options.port, baudRate: p.serial.ports[0]?.options.baudRate },
      { port: 2, baudRate: 38400 },
    );
    provider.close();
  });

  it('opens the Modbus line of the configured bus on the configured UART', () => {
    const p = ports();
    const board = { ...withUarts, modbusBus: 'field' };
    const provider = modbusFeature.provider(board, p);
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
    assert.equal(p.serial.ports.length, 1);
    assert.deepEqual(
      { port: p.serial.last.options.port, baudRate: p.serial.last.options.baudRate },
      { port: 1, baudRate: 19200 },
    );
    provider.close();
  });
});
