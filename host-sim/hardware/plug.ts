/**
 * The simulator's hardware, plugged into the Node target's composition root
 * (targets/node/hardware.ts): simulated pins driven by the simulated device
 * (scenario file of `--scenario`), the simulated GNSS receiver, the simulated
 * Modbus slave and the simulated CAN buses. Device paths still reach real
 * serial ports, so a simulated device can read one real bus.
 *
 *   --scenario FILE            simulated signals per channel key (host-sim/device/scenario.ts)
 *   --gnss simulated[:FILE]    see gnss.ts
 *   --bus KEY=sim[:map.json]   the simulated Modbus slave (host-sim/modbus/demo-map.json by default)
 *   --bus KEY=j1939-sim        a simulated CAN bus carrying the demo engine's J1939 traffic
 *   --bus KEY=replay:FILE      a simulated CAN bus replaying a candump log, looped
 */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { AgentError } from '../../src/errors.js';
import type {
  Can,
  CanHandlers,
  CanPort,
  Clock,
  Serial,
  SerialHandlers,
  SerialOptions,
  SerialPort,
} from '../../src/ports.js';
import {
  isSimulatorTarget,
  type Hardware,
  type HardwareContext,
  type HardwarePlug,
} from '../../targets/node/hardware.js';
import type { OptionSpec } from '../../targets/node/options.js';
import { NodeSerial } from '../../targets/node/serial.js';
import { SimulatedCanBus } from '../can/bus.js';
import { parseCandump } from '../can/candump.js';
import { J1939Generator } from '../can/j1939-generator.js';
import { SimulatedDevice } from '../device/device.js';
import { parseScenario, type Scenario } from '../device/scenario.js';
import { SimulatedModbusLink } from '../modbus/link.js';
import { demoMapPath, readRegisterMap } from '../modbus/serial-slave.js';
import { ModbusSlave } from '../modbus/slave.js';
import { SimPins } from '../pins/sim-pins.js';
import { isSimulatedGnss, simulatedGnssSerial } from './gnss.js';

/** The flags the simulator adds to the agent's. */
export const simulatorOptions: readonly OptionSpec[] = [
  { flag: 'scenario', env: 'DDS_SCENARIO', help: 'scenario file (JSON or YAML) of simulated signals' },
  { flag: 'gnss', env: 'DDS_GNSS', help: 'GNSS receiver: DEVICE[@BAUD], or simulated[:route.json|capture.log]' },
  {
    flag: 'bus',
    env: 'DDS_BUS',
    help: 'KEY=TARGET: a serial device, sim[:map.json], j1939-sim or replay:candump.log (repeatable)',
    repeatable: true,
  },
];

/** What the simulator plugged in, for callers that drive or watch it (npm start, tests). */
export interface SimulatedHardware extends Hardware {
  pins: SimPins;
  device: SimulatedDevice;
}

/** Reads the scenario file of `--scenario` (JSON, or YAML by extension), naming the option and path on failure. */
export function loadScenario(path: string | undefined): { scenario?: Scenario; readFile: (p: string) => string } {
  if (path === undefined) return { readFile: (p) => readFileSync(p, 'utf8') };
  const base = dirname(resolve(path));
  const readFile = (p: string): string => readFileSync(resolve(base, p), 'utf8');
  try {
    return { scenario: parseScenario(readFileSync(path, 'utf8'), /\.ya?ml$/i.test(path)), readFile };
  } catch (e) {
    const why = (e as { code?: string }).code ?? (e instanceof Error ? e.message : String(e));
    throw new AgentError('config.invalid', `--scenario ${path}: ${why}`, { cause: e });
  }
}

/** Serial ports: `sim[:map]` to a simulated slave, `simulated[:FILE]` to the receiver, paths to serialport. */
class SimulatorSerial implements Serial {
  private readonly node = new NodeSerial();
  constructor(
    private readonly clock: Clock,
    private readonly gnss: Serial | undefined,
  ) {}

  open(options: SerialOptions, handlers: SerialHandlers): SerialPort {
    const port = String(options.port);
    if (isSimulatedGnss(port) && this.gnss !== undefined) return this.gnss.open(options, handlers);
    if (port !== 'sim' && !port.startsWith('sim:')) return this.node.open(options, handlers);
    const map = readRegisterMap(port === 'sim' ? demoMapPath : port.slice(4));
    return new SimulatedModbusLink(new ModbusSlave(map), this.clock).open(options, handlers);
  }
}

/** CAN buses: `j1939-sim` or `replay:<candump log>`. */
class SimulatorCan implements Can {
  constructor(private readonly clock: Clock) {}

  open(options: { bus: string; bitrate: number }, handlers: CanHandlers): CanPort {
    const bus = new SimulatedCanBus(this.clock);
    if (options.bus === 'j1939-sim') new J1939Generator(bus, this.clock).start();
    else if (options.bus.startsWith('replay:')) {
      const log = parseCandump(readFileSync(options.bus.slice(7), 'utf8'));
      bus.replay(log.frames, { loop: true });
    } else {
      throw new AgentError('unsupported', `CAN target "${options.bus}": use j1939-sim or replay:<candump log>`);
    }
    const port = bus.open(options, handlers);
    return { send: (f) => port.send(f), close: () => (bus.stop(), port.close()) };
  }
}

/** The simulator's hardware for one agent; `onPlugged` hands it to the caller. */
export function simulatorPlug(onPlugged: (hardware: SimulatedHardware) => void = () => undefined): HardwarePlug {
  return (context: HardwareContext): SimulatedHardware => {
    const { options, clock, logger, custom } = context;
    const gnssValue = options.values['gnss']?.[0];
    const gnss =
      gnssValue !== undefined && isSimulatedGnss(gnssValue)
        ? simulatedGnssSerial(gnssValue, clock, (p) => readFileSync(p, 'utf8'))
        : undefined;
    const { scenario, readFile } = loadScenario(options.values['scenario']?.[0]);
    const pins = new SimPins(clock);
    const device = new SimulatedDevice({
      clock,
      pins,
      custom,
      logger,
      readFile,
      ...(scenario === undefined ? {} : { scenario }),
    });
    const hardware: SimulatedHardware = {
      pins,
      device,
      serial: new SimulatorSerial(clock, gnss),
      can: new SimulatorCan(clock),
      providers: [device],
      claims: isSimulatorTarget,
    };
    onPlugged(hardware);
    return hardware;
  };
}
