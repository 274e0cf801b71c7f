/**
 * The simulated device: whatever product it is pointed at, every input channel
 * gets a signal, the default one or the scenario's (scenario.ts).
 * Pin channels are driven through SimPins (engineering units converted to raw
 * counts with the channel's inverse scaling); read-only custom channels are
 * published through the custom channel API once per their scan interval.
 *
 * It plugs into the agent as a channel provider without types: `configure`
 * runs with each new configuration, before the pins provider opens the pins.
 */
import type { ChannelDriver, ChannelDriverProvider } from '../../src/agent/driver.js';
import type { Channel, ChannelConfig, ChannelType } from '../../src/config/model.js';
import type { CustomChannels } from '../../src/custom/provider.js';
import { AgentError } from '../../src/errors.js';
import type { Clock, Logger, TimerHandle } from '../../src/ports.js';
import { createSignal, type Signal } from '../pins/signals.js';
import type { SimPins } from '../pins/sim-pins.js';
import { defaultSignal, type Scenario } from './scenario.js';

export interface SimulatedDeviceOptions {
  clock: Clock;
  pins: SimPins;
  custom: CustomChannels;
  logger: Logger;
  scenario?: Scenario;
  /** Reads CSV files named by the scenario. */
  readFile?: (path: string) => string;
}

export class SimulatedDevice implements ChannelDriverProvider {
  readonly types: readonly ChannelType[] = [];
  private readonly startMs: number;
  /** One publishing timer per custom channel key. */
  private readonly timers = new Map<string, TimerHandle>();
  /** The signal kind given to each channel key (for the display). */
  readonly assigned = new Map<string, string>();

  constructor(private readonly options: SimulatedDeviceOptions) {
    this.startMs = options.clock.monotonicMs();
  }

  configure(config: ChannelConfig): void {
    this.close();
    this.assigned.clear();
    const scenario = this.options.scenario?.channels ?? {};
    const keys = new Set(config.channels.map((c) => c.key));
    for (const key of Object.keys(scenario)) {
      if (!keys.has(key))
        this.options.logger.log('warn', 'scenario names a channel the product does not have', { key });
    }
    for (const channel of config.channels) {
      const spec = scenario[channel.key] ?? defaultSignal(channel, this.options.pins.analogResolution);
      if (spec === undefined) continue;
      let signal: Signal;
      try {
        signal = createSignal(spec, this.options.readFile ?? (() => ''));
      } catch (e) {
        this.options.logger.log('error', 'scenario signal refused', { key: channel.key, reason: (e as Error).message });
        continue;
      }
      if (this.drive(channel, signal)) this.assigned.set(channel.key, spec.kind);
    }
  }

  private elapsed(nowMs: number): number {
    return nowMs - this.startMs;
  }

  private drive(channel: Channel, signal: Signal): boolean {
    if (channel.type === 'digitalInput') {
      this.options.pins.setSource(channel.pin, (now) => Boolean(signal(this.elapsed(now))));
      return true;
    }
    if (channel.type === 'analogInput') {
      const { scaleGain, scaleOffset } = channel;
      this.options.pins.setSource(channel.pin, (now) => (Number(signal(this.elapsed(now))) - scaleOffset) / scaleGain);
      return true;
    }
    if (channel.type === 'custom') {
      const publish = (): void => {
        const v = signal(this.elapsed(this.options.clock.monotonicMs()));
        const value =
          channel.customType === 'boolean'
            ? Boolean(v)
            : channel.customType === 'number'
              ? Math.round(Number(v))
              : Number(v);
        try {
          this.options.custom.publish(channel.key, value);
        } catch {
          // the channel went away with a new configuration
        }
        this.timers.set(channel.key, this.options.clock.setTimer(publish, channel.scanIntervalMs));
      };
      publish();
      return true;
    }
    this.options.logger.log('warn', 'the simulated device cannot drive this channel type', {
      key: channel.key,
      type: channel.type,
    });
    return false;
  }

  create(channel: Channel): ChannelDriver {
    throw new AgentError('internal', `simulated device drives no channel itself (${channel.key})`);
  }

  close(): void {
    for (const t of this.timers.values()) this.options.clock.clearTimer(t);
    this.timers.clear();
  }
}
