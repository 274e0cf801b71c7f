/**
 * The channel providers of the Node agent, in one place: pins (from the
 * plugged hardware, else -EOPNOTSUPP), custom values, the GNSS receiver of
 * `--gnss`, the Modbus and CAN buses of `--bus`, and whatever providers the
 * plugged hardware adds (the simulated device).
 */
import type { ChannelDriverProvider } from '../../src/agent/driver.js';
import type { CustomChannels } from '../../src/custom/provider.js';
import { PinChannelProvider } from '../../src/pins/provider.js';
import type { Clock, Logger } from '../../src/ports.js';
import { busProviders } from './buses.js';
import { gnssProvider } from './gnss.js';
import { NoPins, type Hardware } from './hardware.js';
import type { NodeAgentOptions } from './options.js';

export interface ProviderContext {
  options: NodeAgentOptions;
  clock: Clock;
  logger: Logger;
  custom: CustomChannels;
  hardware: Hardware;
}

/** Every provider the Node agent registers; closed by the agent at stop. */
export function buildProviders(context: ProviderContext): ChannelDriverProvider[] {
  const { options, clock, logger, hardware } = context;
  const providers: ChannelDriverProvider[] = [
    ...(hardware.providers ?? []),
    hardware.pins === undefined ? new NoPins(logger) : new PinChannelProvider(hardware.pins),
    context.custom,
    ...busProviders(options.values['bus'] ?? [], clock, logger, hardware),
  ];
  const gnss = options.values['gnss']?.[0];
  if (gnss !== undefined) providers.push(gnssProvider(gnss, { clock, logger, hardware }));
  return providers;
}
