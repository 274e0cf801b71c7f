/**
 * The field buses of the Node agent, from repeatable `--bus <bus key>=<target>`
 * flags (issue 6). A bus of the channel list whose key is given is read through
 * the target; bus settings (baud rate, data bits, parity, stop bits, bitrate)
 * come from the channel list.
 *
 *   --bus rs485=/dev/ttyUSB0      a Modbus bus on a real serial device (serialport)
 *   --bus rs485=sim               the simulated Modbus slave with host-sim/modbus/demo-map.json
 *   --bus rs485=sim:my-map.json   the simulated Modbus slave with another register map
 *   --bus can0=j1939-sim          a simulated CAN bus carrying the demo engine's J1939 traffic
 *   --bus can0=replay:trace.log   a simulated CAN bus replaying a candump log, looped
 *
 * Node has no CAN socket adapter: a CAN bus needs `j1939-sim` or `replay:`.
 * A Modbus bus without `--bus` reports -ENODEV on its channels.
 */
import { readFileSync } from 'node:fs';
import type { ChannelDriverProvider } from '../../src/agent/driver.js';
import { CanProvider } from '../../src/can/provider.js';
import { AgentError } from '../../src/errors.js';
import { ModbusProvider, type ModbusPortConfig } from '../../src/modbus/provider.js';
import type {
  Can,
  CanHandlers,
  CanPort,
  Clock,
  Logger,
  Serial,
  SerialHandlers,
  SerialOptions,
  SerialPort,
} from '../../src/ports.js';
import { SimulatedCanBus } from '../../host-sim/can/bus.js';
import { parseCandump } from '../../host-sim/can/candump.js';
import { J1939Generator } from '../../host-sim/can/j1939-generator.js';
import { SimulatedModbusLink } from '../../host-sim/modbus/link.js';
import { demoMapPath, readRegisterMap } from '../../host-sim/modbus/serial-slave.js';
import { ModbusSlave } from '../../host-sim/modbus/slave.js';
import { ReopeningSerial } from '../../src/serial/reopening-serial.js';
import { NodeSerial } from './serial.js';

/** `key=target` values of `--bus`, validated. Throws AgentError `config.invalid`. */
export function parseBusFlags(values: readonly string[]): Map<string, string> {
  const buses = new Map<string, string>();
  for (const v of values) {
    const eq = v.indexOf('=');
    if (eq <= 0 || eq === v.length - 1) {
      throw new AgentError(
        'config.invalid',
        `--bus ${v}: expected <bus key>=<device path | sim[:map.json] | j1939-sim | replay:file>`,
      );
    }
    const key = v.slice(0, eq);
    if (buses.has(key)) throw new AgentError('config.invalid', `--bus ${key} given twice`);
    buses.set(key, v.slice(eq + 1));
  }
  return buses;
}

/** Serial that routes `sim` / `sim:<map>` ports to a simulated slave and device paths to serialport. */
class RoutingSerial implements Serial {
  private readonly node: Serial;
  constructor(
    private readonly clock: Clock,
    logger: Logger,
  ) {
    // An unplugged USB RS-485 adapter is reopened with back-off (src/serial/reopening-serial.ts).
    this.node = new ReopeningSerial(new NodeSerial(), clock, logger);
  }

  open(options: SerialOptions, handlers: SerialHandlers): SerialPort {
    const port = String(options.port);
    if (port !== 'sim' && !port.startsWith('sim:')) return this.node.open(options, handlers);
    const map = readRegisterMap(port === 'sim' ? demoMapPath : port.slice(4));
    return new SimulatedModbusLink(new ModbusSlave(map), this.clock).open(options, handlers);
  }
}

/** Can that opens simulated buses: `j1939-sim` or `replay:<candump log>`. */
class SimulatedCan implements Can {
  constructor(private readonly clock: Clock) {}

  open(options: { bus: string; bitrate: number }, handlers: CanHandlers): CanPort {
    const bus = new SimulatedCanBus(this.clock);
    if (options.bus === 'j1939-sim') new J1939Generator(bus, this.clock).start();
    else if (options.bus.startsWith('replay:')) {
      const log = parseCandump(readFileSync(options.bus.slice(7), 'utf8'));
      bus.replay(log.frames, { loop: true });
    } else {
      throw new AgentError('unsupported', `CAN target "${options.bus}": use j1939-sim or replay:<candump log> on Node`);
    }
    const port = bus.open(options, handlers);
    return { send: (f) => port.send(f), close: () => (bus.stop(), port.close()) };
  }
}

/** The Modbus and CAN providers for the `--bus` values. */
export function busProviders(values: readonly string[], clock: Clock, logger: Logger): ChannelDriverProvider[] {
  const buses = parseBusFlags(values);
  const ports: Record<string, ModbusPortConfig> = {};
  const interfaces: Record<string, string> = {};
  for (const [key, target] of buses) {
    ports[key] = { port: target };
    interfaces[key] = target;
  }
  return [
    new ModbusProvider({ serial: new RoutingSerial(clock, logger), clock, logger, ports }),
    new CanProvider({ can: new SimulatedCan(clock), clock, logger, interfaces }),
  ];
}
