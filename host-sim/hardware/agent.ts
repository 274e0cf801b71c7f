/**
 * The Node agent with the simulator's hardware plugged in: what `npm start`,
 * `npm run device` and the end-to-end tests run. The runtime is the Node
 * target's, plus the simulated pins and device to drive or watch.
 */
import type { CommandInfo, NodeAgentOptions } from '../../targets/node/options.js';
import { parseOptions } from '../../targets/node/options.js';
import { startNodeAgent, type NodeAgentOverrides, type NodeAgentRuntime } from '../../targets/node/runtime.js';
import type { SimPins } from '../pins/sim-pins.js';
import type { SimulatedDevice } from '../device/device.js';
import { simulatorOptions, simulatorPlug, type SimulatedHardware } from './plug.js';

export const deviceCommand: CommandInfo = {
  name: 'npm run device --',
  about:
    'The agent on Node with simulated hardware (pins driven by --scenario, a simulated GNSS receiver, Modbus slave\n' +
    "and J1939 engine) against any Device Data Service, e.g. `npm start`'s. Ctrl-C stops it (the queue is flushed first).",
  extra: simulatorOptions,
};

export interface SimulatedAgentRuntime extends NodeAgentRuntime {
  pins: SimPins;
  device: SimulatedDevice;
}

/** The agent's options with the simulator's flags (`--scenario`) accepted. */
export function parseDeviceOptions(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>> = {},
  readFile: (path: string) => string = () => '',
): NodeAgentOptions {
  return parseOptions(argv, env, readFile, deviceCommand);
}

/** Starts the Node agent with simulated hardware (resolves after the first configuration attempt). */
export async function startSimulatedAgent(
  options: NodeAgentOptions,
  overrides: Omit<NodeAgentOverrides, 'hardware'> = {},
): Promise<SimulatedAgentRuntime> {
  let plugged: SimulatedHardware | undefined;
  const runtime = await startNodeAgent(options, { ...overrides, hardware: simulatorPlug((h) => (plugged = h)) });
  if (plugged === undefined) throw new Error('the simulator plug was not called');
  return { ...runtime, pins: plugged.pins, device: plugged.device };
}
