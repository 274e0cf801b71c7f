/**
 * The channel providers of the Node agent, in one place: pins (simulated
 * pins of host-sim/pins, driven by the simulated device), custom values, and
 * the simulated device itself. Other areas add theirs here (GNSS from
 * `--gnss`, Modbus and CAN from `--bus`), reading their flags from
 * `context.options.values`.
 */
import { readFileSync } from 'node:fs';
import type { ChannelDriverProvider } from '../../src/agent/driver.js';
import type { CustomChannels } from '../../src/custom/provider.js';
import { PinChannelProvider } from '../../src/pins/provider.js';
import type { Clock, Logger } from '../../src/ports.js';
import type { SimulatedDevice } from '../../host-sim/device/device.js';
import type { SimPins } from '../../host-sim/pins/sim-pins.js';
import { busProviders } from './buses.js';
import { gnssProvider } from './gnss.js';
import type { NodeAgentOptions } from './options.js';

export interface ProviderContext {
  options: NodeAgentOptions;
  clock: Clock;
  logger: Logger;
  pins: SimPins;
  custom: CustomChannels;
  device: SimulatedDevice;
}

/** Every provider the Node agent registers; closed by the agent at stop. */
export function buildProviders(context: ProviderContext): ChannelDriverProvider[] {
  const providers: ChannelDriverProvider[] = [
    context.device,
    new PinChannelProvider(context.pins),
    context.custom,
    ...busProviders(context.options.values['bus'] ?? [], context.clock, context.logger),
  ];
  const gnss = context.options.values['gnss']?.[0];
  if (gnss !== undefined) providers.push(gnssProvider(gnss, { ...context, readFile: (p) => readFileSync(p, 'utf8') }));
  return providers;
}
