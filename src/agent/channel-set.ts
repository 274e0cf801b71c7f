/**
 * Builds the run-time channels from a validated configuration: one driver per
 * channel from the provider registered for its type, one scheduler entry at its
 * scanInterval. A rejected channel is logged and reports -EINVAL on its
 * `.reported` state when its key is known (decisions 8); a type without a
 * provider reports -EOPNOTSUPP (decisions 4), logged once per type; a provider
 * that throws rejects only that channel.
 *
 * A reload is a diff, not a rebuild: a channel whose settings (and bus) are
 * unchanged keeps its driver, its schedule and its transmit state; a changed
 * one restarts afresh (decisions 3 rule 1); a removed one stops. Keys that were
 * configured once and are gone now are remembered (`wasConfigured`), so that
 * records of a removed channel still queued can be recognised.
 */
import type { Channel, ChannelConfig } from '../config/model.js';
import { Errno } from '../errno.js';
import { toAgentError } from '../errors.js';
import type { Clock, Logger } from '../ports.js';
import type { Reporter } from '../report/reporter.js';
import type { Scheduler, ScheduledTask } from '../sched/scheduler.js';
import { ChannelSlot, type SampleSink } from './channel-slot.js';
import type { AgentCounters } from './counters.js';
import { errorSample, type ChannelDriverProvider } from './driver.js';

interface Running {
  slot: ChannelSlot;
  task: ScheduledTask;
  /** Settings text of the channel and its bus: equal text means an unchanged channel. */
  signature: string;
}

/** The settings that make a channel what it is: its own fields and those of its bus, if any. */
function signatureOf(channel: Channel, config: ChannelConfig): string {
  const busKey = 'bus' in channel ? channel.bus : undefined;
  const bus = busKey === undefined ? undefined : config.buses.find((b) => b.key === busKey);
  return JSON.stringify([channel, bus ?? null]);
}

export class ChannelSet {
  readonly slots = new Map<string, ChannelSlot>();
  private readonly running = new Map<string, Running>();
  private readonly warnedTypes = new Set<string>();
  private configured: ReadonlySet<string> = new Set();
  private readonly former = new Set<string>();

  constructor(
    private readonly providers: readonly ChannelDriverProvider[],
    private readonly scheduler: Scheduler,
    private readonly sink: SampleSink,
    private readonly reporter: Reporter,
    private readonly clock: Clock,
    private readonly logger: Logger,
    private readonly counters: AgentCounters,
  ) {}

  /**
   * Applies `config`: unchanged channels keep running (and their transmit
   * state), changed ones restart afresh (decisions 3 rule 1), removed ones stop.
   */
  apply(config: ChannelConfig): void {
    const now = this.clock.monotonicMs();
    const wanted = new Map(config.channels.map((c) => [c.key, signatureOf(c, config)]));
    let kept = 0;
    for (const [key, run] of [...this.running]) {
      if (wanted.get(key) === run.signature) {
        kept++;
        continue;
      }
      this.stopChannel(key, run);
    }
    for (const provider of this.providers) {
      try {
        provider.configure?.(config);
      } catch (e) {
        this.logger.log('error', 'a channel provider refused the configuration', { reason: toAgentError(e).message });
      }
    }
    for (const rejected of config.rejected) {
      this.logger.log('error', 'channel rejected', { key: rejected.key, uid: rejected.uid, reason: rejected.reason });
      if (rejected.key !== undefined) this.reporter.channel(rejected.key, false, errorSample(Errno.EINVAL), now);
    }
    for (const channel of config.channels) {
      if (!this.running.has(channel.key)) this.startChannel(channel, wanted.get(channel.key) ?? '', now);
    }
    const keys = new Set<string>(config.channels.map((c) => c.key));
    for (const rejected of config.rejected) if (rejected.key !== undefined) keys.add(rejected.key);
    for (const key of this.configured) if (!keys.has(key)) this.former.add(key);
    for (const key of keys) this.former.delete(key);
    this.configured = keys;
    this.logger.log('info', 'channels configured', {
      channels: this.slots.size,
      kept,
      rejected: config.rejected.length,
    });
  }

  /** Whether `key` is a channel (running or rejected) of the current configuration. */
  isConfigured(key: string): boolean {
    return this.configured.has(key);
  }

  /** Whether `key` was a channel of an earlier configuration and is not one now. */
  wasConfigured(key: string): boolean {
    return this.former.has(key);
  }

  /** Stops scanning and closes every driver. */
  close(): void {
    for (const [key, run] of [...this.running]) this.stopChannel(key, run);
  }

  /** Closes the providers' shared resources (at agent stop). */
  closeProviders(): void {
    for (const provider of this.providers) {
      try {
        provider.close?.();
      } catch {
        // best effort
      }
    }
  }

  private startChannel(channel: Channel, signature: string, now: number): void {
    const provider = this.providers.find((p) => p.types.includes(channel.type));
    const isLocation = channel.type === 'location';
    if (provider === undefined) {
      if (!this.warnedTypes.has(channel.type)) {
        this.warnedTypes.add(channel.type);
        this.logger.log('warn', 'no provider for this channel type on this target: reporting -EOPNOTSUPP', {
          type: channel.type,
        });
      }
      this.reporter.channel(channel.key, isLocation, errorSample(Errno.EOPNOTSUPP), now);
      return;
    }
    try {
      const slot = new ChannelSlot(channel, provider.create(channel), this.sink, this.counters);
      this.slots.set(channel.key, slot);
      this.running.set(channel.key, { slot, task: this.scheduler.add(slot, channel.scanIntervalMs), signature });
    } catch (e) {
      const error = toAgentError(e);
      this.logger.log('error', 'channel rejected by its provider', { key: channel.key, reason: error.message });
      this.reporter.channel(channel.key, isLocation, errorSample(error.errno ?? Errno.EINVAL), now);
    }
  }

  private stopChannel(key: string, run: Running): void {
    this.scheduler.remove(run.task);
    run.slot.close();
    this.running.delete(key);
    this.slots.delete(key);
  }
}
