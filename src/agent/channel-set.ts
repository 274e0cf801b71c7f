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
 *
 * A running channel is one ChannelSlot in one map; what tells a changed channel
 * from an unchanged one is a 53-bit hash of its settings kept on the slot (a
 * number, not the settings text: heap per channel on XS).
 */
import type { Channel, ChannelConfig, TransmitEvent } from '../config/model.js';
import { Errno } from '../errno.js';
import { toAgentError } from '../errors.js';
import type { Clock, Logger } from '../ports.js';
import type { Reporter } from '../report/reporter.js';
import type { Scheduler } from '../sched/scheduler.js';
import { ChannelSlot, slotContext, type SampleSink, type SlotContext } from './channel-slot.js';
import type { AgentCounters } from './counters.js';
import { errorSample, type ChannelDriverProvider } from './driver.js';

/** FNV-1a (32 bits) and djb2 (21 bits) of `text` in one integer below 2^53. */
export function hashText(text: string): number {
  let fnv = 0x811c9dc5;
  let djb = 5381;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    fnv = Math.imul(fnv ^ c, 0x01000193);
    djb = (Math.imul(djb, 33) + c) | 0;
  }
  return (fnv >>> 0) * 0x200000 + (djb & 0x1fffff);
}

/** The settings that make a channel what it is, hashed: its own fields and those of its bus, if any. */
function signatureOf(channel: Channel, config: ChannelConfig): number {
  const busKey = 'bus' in channel ? channel.bus : undefined;
  const bus = busKey === undefined ? undefined : config.buses.find((b) => b.key === busKey);
  return hashText(JSON.stringify([channel, bus ?? null]));
}

export class ChannelSet {
  /** The running channels by key. */
  readonly slots = new Map<string, ChannelSlot>();
  /** Keys of the current configuration that do not run: rejected, unsupported, refused by their provider. */
  private idle = new Set<string>();
  private readonly former = new Set<string>();
  private readonly warnedTypes = new Set<string>();
  private readonly context: SlotContext;

  constructor(
    private readonly providers: readonly ChannelDriverProvider[],
    private readonly scheduler: Scheduler,
    sink: SampleSink,
    private readonly reporter: Reporter,
    private readonly clock: Clock,
    private readonly logger: Logger,
    counters: AgentCounters,
  ) {
    this.context = slotContext(sink, counters);
  }

  /**
   * Applies `config`: unchanged channels keep running (and their transmit
   * state), changed ones restart afresh (decisions 3 rule 1), removed ones stop.
   */
  apply(config: ChannelConfig): void {
    const now = this.clock.monotonicMs();
    const before = [...this.slots.keys(), ...this.idle];
    const wanted = new Map(config.channels.map((c) => [c.key, signatureOf(c, config)]));
    let kept = 0;
    for (const slot of [...this.slots.values()]) {
      if (wanted.get(slot.key) === slot.signature) {
        kept++;
        continue;
      }
      this.stopChannel(slot);
    }
    for (const provider of this.providers) {
      try {
        provider.configure?.(config);
      } catch (e) {
        this.logger.log('error', 'a channel provider refused the configuration', { reason: toAgentError(e).message });
      }
    }
    this.idle = new Set();
    for (const rejected of config.rejected) {
      this.logger.log('error', 'channel rejected', { key: rejected.key, uid: rejected.uid, reason: rejected.reason });
      if (rejected.key === undefined) continue;
      this.idle.add(rejected.key);
      this.reporter.channel(rejected.key, false, errorSample(Errno.EINVAL), now);
    }
    // Channels started together share equal transmit event lists (read-only): most channels have the same.
    const eventLists = new Map<string, readonly TransmitEvent[]>();
    for (const channel of config.channels) {
      if (this.slots.has(channel.key)) continue;
      const text = JSON.stringify(channel.transmitEvents);
      const events = eventLists.get(text) ?? channel.transmitEvents;
      eventLists.set(text, events);
      if (!this.startChannel(channel, wanted.get(channel.key) ?? 0, events, now)) this.idle.add(channel.key);
    }
    for (const key of before) if (!this.isConfigured(key)) this.former.add(key);
    for (const key of this.slots.keys()) this.former.delete(key);
    for (const key of this.idle) this.former.delete(key);
    this.logger.log('info', 'channels configured', {
      channels: this.slots.size,
      kept,
      rejected: config.rejected.length,
    });
  }

  /** Whether `key` is a channel (running or rejected) of the current configuration. */
  isConfigured(key: string): boolean {
    return this.slots.has(key) || this.idle.has(key);
  }

  /** Whether `key` was a channel of an earlier configuration and is not one now. */
  wasConfigured(key: string): boolean {
    return this.former.has(key);
  }

  /** Stops scanning and closes every driver. */
  close(): void {
    for (const slot of [...this.slots.values()]) this.stopChannel(slot);
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

  /** Starts `channel`; false when it cannot run here (reported as an error state). */
  private startChannel(channel: Channel, signature: number, events: readonly TransmitEvent[], now: number): boolean {
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
      return false;
    }
    try {
      const slot = new ChannelSlot(channel, provider.create(channel), this.context, signature, events);
      this.scheduler.add(slot, channel.scanIntervalMs);
      this.slots.set(channel.key, slot);
      return true;
    } catch (e) {
      const error = toAgentError(e);
      this.logger.log('error', 'channel rejected by its provider', { key: channel.key, reason: error.message });
      this.reporter.channel(channel.key, isLocation, errorSample(error.errno ?? Errno.EINVAL), now);
      return false;
    }
  }

  private stopChannel(slot: ChannelSlot): void {
    this.scheduler.remove(slot);
    slot.close();
    this.slots.delete(slot.key);
  }
}
