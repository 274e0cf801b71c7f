/**
 * The field buses of the Node agent, from repeatable `--bus <bus key>=<target>`
 * flags. A bus of the channel list whose key is given is read through the
 * target; bus settings (baud rate, data bits, parity, stop bits, bitrate) come
 * from the channel list.
 *
 *   --bus rs485=/dev/ttyUSB0      a Modbus bus on a real serial device (serialport)
 *   --bus rs485=sim               simulated buses (sim[:map.json], j1939-sim, replay:candump.log),
 *                                 when the simulator is plugged in (`npm run device`)
 *
 * The target alone has no CAN adapter (see hardware.ts): a CAN bus reports -EIO
 * and says why. A Modbus bus without `--bus` reports -ENODEV on its channels; a
 * `--bus` key the channel list does not have is logged once per configuration.
 */
import type { ChannelDriverProvider } from '../../src/agent/driver.js';
import { CanProvider } from '../../src/can/provider.js';
import type { ChannelConfig } from '../../src/config/model.js';
import { AgentError } from '../../src/errors.js';
import { ModbusProvider, type ModbusPortConfig } from '../../src/modbus/provider.js';
import type { Clock, Logger } from '../../src/ports.js';
import { ReopeningSerial } from '../../src/serial/reopening-serial.js';
import { checkTarget, NoCan, type Hardware } from './hardware.js';
import { NodeSerial } from './serial.js';

/** `key=target` values of `--bus`, validated. Throws AgentError `config.invalid`. */
export function parseBusFlags(values: readonly string[], hardware: Hardware = {}): Map<string, string> {
  const buses = new Map<string, string>();
  for (const v of values) {
    const eq = v.indexOf('=');
    if (eq <= 0 || eq === v.length - 1) {
      throw new AgentError('config.invalid', `--bus ${v}: expected <bus key>=<device path>`);
    }
    const key = v.slice(0, eq);
    if (buses.has(key)) throw new AgentError('config.invalid', `--bus ${key} given twice`);
    checkTarget(`--bus ${key}`, v.slice(eq + 1), hardware);
    buses.set(key, v.slice(eq + 1));
  }
  return buses;
}

/** Says once per configuration which `--bus` keys name no bus of the channel list. */
class UnknownBusKeys implements ChannelDriverProvider {
  readonly types = [];
  constructor(
    private readonly keys: readonly string[],
    private readonly logger: Logger,
  ) {}

  configure(config: ChannelConfig): void {
    const known = new Set(config.buses.map((b) => b.key));
    for (const key of this.keys) {
      if (!known.has(key)) {
        this.logger.log('warn', `--bus ${key}: the channel list has no bus "${key}"`, {
          buses: [...known].join(', ') || '(none)',
        });
      }
    }
  }

  create(): never {
    throw new AgentError('internal', 'the --bus key check drives no channel');
  }
}

/** The Modbus and CAN providers for the `--bus` values. */
export function busProviders(
  values: readonly string[],
  clock: Clock,
  logger: Logger,
  hardware: Hardware = {},
): ChannelDriverProvider[] {
  const buses = parseBusFlags(values, hardware);
  const ports: Record<string, ModbusPortConfig> = {};
  const interfaces: Record<string, string> = {};
  for (const [key, target] of buses) {
    ports[key] = { port: target };
    interfaces[key] = target;
  }
  return [
    new UnknownBusKeys([...buses.keys()], logger),
    // A port that fails (an unplugged USB RS-485 adapter) is reopened with back-off (src/serial/reopening-serial.ts).
    new ModbusProvider({
      serial: new ReopeningSerial(hardware.serial ?? new NodeSerial(), clock, logger),
      clock,
      logger,
      ports,
    }),
    new CanProvider({ can: hardware.can ?? new NoCan(), clock, logger, interfaces }),
  ];
}
