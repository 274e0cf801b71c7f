/**
 * The hardware the Node target reads, and how a caller plugs in other
 * hardware. On its own the target has real serial ports (GNSS and Modbus
 * through serialport) and nothing else: pin channels report -EOPNOTSUPP (no
 * GPIO adapter yet) and CAN buses -EIO with a line saying why (no SocketCAN
 * adapter). A caller that has other hardware, the simulator of `npm start` and
 * `npm run device`, passes a `HardwarePlug`: the target never imports it.
 */
import type { ChannelDriver, ChannelDriverProvider } from '../../src/agent/driver.js';
import type { Channel, ChannelType } from '../../src/config/model.js';
import type { CustomChannels } from '../../src/custom/provider.js';
import { Errno } from '../../src/errno.js';
import { AgentError } from '../../src/errors.js';
import type { Can, CanHandlers, CanPort, Clock, Logger, Pins, Serial } from '../../src/ports.js';
import type { NodeAgentOptions } from './options.js';

/** What the composition root hands a plug. */
export interface HardwareContext {
  options: NodeAgentOptions;
  clock: Clock;
  logger: Logger;
  custom: CustomChannels;
}

/** Hardware a caller plugs into the Node target; every part is optional. */
export interface Hardware {
  /** Pins for pin channels (default: none, the channels report -EOPNOTSUPP). */
  pins?: Pins;
  /** Serial ports for GNSS and Modbus; gets the device path of `--gnss` / `--bus` (default: serialport). */
  serial?: Serial;
  /** CAN buses; gets the target of `--bus KEY=TARGET` as the bus name (default: none). */
  can?: Can;
  /** More channel providers (the simulated device drives inputs through one). */
  providers?: ChannelDriverProvider[];
  /** Whether this hardware answers a `--gnss` or `--bus` target that is not a device path. */
  claims?(target: string): boolean;
}

export type HardwarePlug = (context: HardwareContext) => Hardware;

/** Targets only the simulator answers; named so that the error says where to find them. */
export function isSimulatorTarget(target: string): boolean {
  return /^(sim(:|$)|simulated(:|$)|j1939-sim$|replay:)/.test(target);
}

/** Refuses a simulated target when no plug claims it, naming the option and the command that has it. */
export function checkTarget(option: string, target: string, hardware: Hardware): void {
  if (isSimulatorTarget(target) && hardware.claims?.(target) !== true) {
    throw new AgentError(
      'config.invalid',
      `${option}: "${target}" is simulated hardware; \`npm run device\` (the agent with the simulator plugged in) has it`,
    );
  }
}

const pinTypes: readonly ChannelType[] = ['digitalInput', 'digitalOutput', 'analogInput', 'analogOutput'];

/** Pin channels on a host without a pins adapter: each reports -EOPNOTSUPP, said once per configuration. */
export class NoPins implements ChannelDriverProvider {
  readonly types = pinTypes;
  private told = false;

  constructor(private readonly logger: Logger) {}

  configure(): void {
    this.told = false;
  }

  create(channel: Channel): ChannelDriver {
    if (!this.told) {
      this.logger.log('warn', 'pin channels report -95 EOPNOTSUPP: the Node target has no GPIO adapter', {
        key: channel.key,
      });
      this.told = true;
    }
    const unsupported = { ok: false as const, errno: Errno.EOPNOTSUPP };
    return { sample: () => unsupported, applyDesired: () => unsupported, close: () => undefined };
  }
}

/** CAN on a host without a CAN adapter: opening fails, so the provider reports -EIO and logs the reason. */
export class NoCan implements Can {
  open(options: { bus: string; bitrate: number }, _handlers: CanHandlers): CanPort {
    throw new AgentError(
      'unsupported',
      `CAN "${options.bus}": the Node target has no SocketCAN adapter (simulated buses: npm run device)`,
    );
  }
}
