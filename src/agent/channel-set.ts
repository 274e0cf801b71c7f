/**
 * Builds the run-time channels from a validated configuration: one driver per
 * channel from the provider registered for its type, one scheduler entry at its
 * scanInterval. A rejected channel is logged and reports -EINVAL on its
 * `.reported` state when its key is known (decisions 8); a type without a
 * provider reports -EOPNOTSUPP (decisions 4), logged once per type; a provider
 * that throws rejects only that channel.
 */
import type { ChannelConfig } from '../config/model.js';
import { Errno } from '../errno.js';
import { toAgentError } from '../errors.js';
import type { Clock, Logger } from '../ports.js';
import type { Reporter } from '../report/reporter.js';
import type { Scheduler, ScheduledTask } from '../sched/scheduler.js';
import { ChannelSlot, type SampleSink } from './channel-slot.js';
import type { AgentCounters } from './counters.js';
import { errorSample, type ChannelDriverProvider } from './driver.js';

export class ChannelSet {
  readonly slots = new Map<string, ChannelSlot>();
  private readonly tasks: ScheduledTask[] = [];
  private readonly warnedTypes = new Set<string>();

  constructor(
    private readonly providers: readonly ChannelDriverProvider[],
    private readonly scheduler: Scheduler,
    private readonly sink: SampleSink,
    private readonly reporter: Reporter,
    private readonly clock: Clock,
    private readonly logger: Logger,
    private readonly counters: AgentCounters,
  ) {}

  /** Replaces every channel with those of `config` (transmit state starts afresh, decisions 3 rule 1). */
  apply(config: ChannelConfig): void {
    this.close();
    const now = this.clock.monotonicMs();
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
        continue;
      }
      try {
        const slot = new ChannelSlot(channel, provider.create(channel), this.sink, this.counters);
        this.slots.set(channel.key, slot);
        this.tasks.push(this.scheduler.add(slot, channel.scanIntervalMs));
      } catch (e) {
        const error = toAgentError(e);
        this.logger.log('error', 'channel rejected by its provider', { key: channel.key, reason: error.message });
        this.reporter.channel(channel.key, isLocation, errorSample(error.errno ?? Errno.EINVAL), now);
      }
    }
    this.logger.log('info', 'channels configured', {
      channels: this.slots.size,
      rejected: config.rejected.length,
    });
  }

  /** Stops scanning and closes every driver. */
  close(): void {
    for (const task of this.tasks) this.scheduler.remove(task);
    this.tasks.length = 0;
    for (const slot of this.slots.values()) slot.close();
    this.slots.clear();
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
}
