/**
 * Builds the run-time channels from a validated configuration: one driver per
 * channel from the provider registered for its type, one scheduler entry at its
 * scanInterval. A channel the configuration rejected reports -EINVAL on its
 * `.reported` state when its key is known (decisions 8); a type without a
 * provider reports -EOPNOTSUPP (decisions 4); a provider that throws rejects
 * only that channel (its errno, else -EINVAL). Each is logged, one line per channel.
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
 *
 * Desired values (decisions 5) are applied here, to the running channels: a
 * record not newer than the last one applied to that key is ignored; the slot
 * writes it (ChannelSlot.write refuses, type-checks and inverse-scales); the
 * value read back, or the error, is echoed on `<key>.reported`. Never rejects.
 * A location sub-channel (`gps.lat`) answers -EROFS on its own state.
 * Clock faults (decisions 8): a record dated beyond the device's time plus
 * `toleranceMs` is applied (it is the latest wish), but the key's "newer than"
 * watermark moves only to the device's time, so one bad timestamp cannot block
 * later records; the faulty record itself is remembered so that a resync
 * returning it (read/last orders by time) does not apply it again. Each such
 * record is logged when applied. While the device's time is unknown, timestamps
 * are taken as they are.
 */
import type { Channel, ChannelConfig, TransmitEvent } from '../config/model.js';
import { Errno } from '../errno.js';
import { info, logFailure, toAgentError, warn } from '../errors.js';
import type { Reporter } from '../report/reporter.js';
import type { Scheduler } from '../sched/scheduler.js';
import type { WallTime } from '../time/wall-time.js';
import { LocationFields } from '../wire.js';
import { ChannelSlot, type SampleSink, type SlotContext } from './channel-slot.js';
import type { AgentCoreOptions } from './agent-options.js';
import type { CoreCounters } from './counters.js';
import type { DesiredRecord } from './desired.js';
import { errorSample, type ChannelDriverProvider, type Sample } from './driver.js';

/** What the channel set takes from the agent's options. */
export type ChannelSetOptions = Pick<AgentCoreOptions, 'providers' | 'clock' | 'logger' | 'desiredToleranceMs'>;

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

export class ChannelSet {
  /** The running channels by key. */
  readonly slots = new Map<string, ChannelSlot>();
  /** Keys of the current configuration that do not run: rejected, unsupported, refused by their provider. */
  #idle = new Set<string>();
  readonly #former = new Set<string>();
  /** Per desired key: the ordering watermark (never ahead of the device's time + tolerance). */
  readonly #appliedMs = new Map<string, number>();
  /** Per desired key: the timestamp of the last far-future record applied (not applied twice). */
  readonly #faultyMs = new Map<string, number>();
  readonly #c: ChannelSetOptions;
  readonly #scheduler: Scheduler;
  readonly #reporter: Reporter;
  readonly #wallTime: WallTime;
  readonly #counters: CoreCounters;
  readonly #slotContext: SlotContext;

  constructor(
    options: ChannelSetOptions,
    scheduler: Scheduler,
    sink: SampleSink,
    reporter: Reporter,
    wallTime: WallTime,
    counters: CoreCounters,
  ) {
    this.#c = options;
    this.#scheduler = scheduler;
    this.#reporter = reporter;
    this.#wallTime = wallTime;
    this.#counters = counters;
    this.#slotContext = { sink, counters, scaled: { ok: true, value: 0 } };
  }

  /**
   * Applies `config`: unchanged channels keep running (and their transmit
   * state), changed ones restart afresh (decisions 3 rule 1), removed ones stop.
   */
  apply(config: ChannelConfig): void {
    const c = this.#c;
    const now = c.clock.monotonicMs();
    // Keys of this configuration and of earlier ones (the former keys change only at the end).
    const before = [...this.slots.keys(), ...this.#idle, ...this.#former];
    // The settings that make a channel what it is, hashed: its own fields and those of its bus, if any.
    const signatures = new Map<string, number>();
    for (const channel of config.channels) {
      const bus = 'bus' in channel ? config.buses.find((b) => b.key === channel.bus) : undefined;
      signatures.set(channel.key, hashText(JSON.stringify([channel, bus ?? null])));
    }
    let kept = 0;
    for (const slot of [...this.slots.values()]) {
      if (signatures.get(slot.key) === slot.signature) kept++;
      else this.remove(slot);
    }
    for (const provider of c.providers) {
      try {
        provider.configure?.(config);
      } catch (e) {
        logFailure(c.logger, 'error', 'channels: provider refused config', e);
      }
    }
    this.#idle = new Set();
    for (const { key, uid, reason } of config.rejected) {
      this.#reject(key ?? uid ?? '?', reason, Errno.EINVAL, now, false, key !== undefined);
    }
    // Channels started together share equal transmit event lists (read-only): most channels have the same.
    const eventLists = new Map<string, readonly TransmitEvent[]>();
    for (const channel of config.channels) {
      if (this.slots.has(channel.key)) continue;
      const text = JSON.stringify(channel.transmitEvents);
      const events = eventLists.get(text) ?? channel.transmitEvents;
      eventLists.set(text, events);
      this.#start(channel, signatures.get(channel.key)!, events, now); // every channel's is set above
    }
    // Keys configured before that are not now; one configured again is no longer former.
    for (const key of before) {
      if (this.isConfigured(key)) this.#former.delete(key);
      else this.#former.add(key);
    }
    info(c.logger, 'channels configured', { channels: this.slots.size, kept });
  }

  /** Whether `key` is a channel (running or rejected) of the current configuration. */
  isConfigured(key: string): boolean {
    return this.slots.has(key) || this.#idle.has(key);
  }

  /** Whether `key` was a channel of an earlier configuration and is not one now. */
  wasConfigured(key: string): boolean {
    return this.#former.has(key);
  }

  /** Applies one desired record (decisions 5 and 8, above); never rejects. */
  async applyDesired(record: DesiredRecord): Promise<void> {
    const { key, value, timestampMs } = record;
    const c = this.#c;
    const dot = key.indexOf('.');
    const slot = this.slots.get(dot < 0 ? key : key.slice(0, dot));
    const field = dot < 0 ? '' : key.slice(dot + 1);
    // Only running channels and location fields: keeps the watermarks bounded whatever the hub sends.
    const unknown =
      slot === undefined || (field !== '' && !(slot.isLocation && LocationFields.includes(field as 'lat')));
    const last = this.#appliedMs.get(key);
    if (unknown || (last !== undefined && timestampMs <= last) || this.#faultyMs.get(key) === timestampMs) {
      this.#counters.desiredIgnored++;
      if (unknown) warn(c.logger, 'desired: no such channel', { key });
      return;
    }
    const nowMs = this.#wallTime.nowMs();
    let watermarkMs = timestampMs;
    if (nowMs !== undefined && timestampMs > nowMs + (c.desiredToleranceMs ?? 60000)) {
      this.#faultyMs.set(key, timestampMs);
      watermarkMs = nowMs;
      warn(c.logger, 'desired: dated ahead of the device clock', { key, timestampMs, nowMs });
    }
    this.#appliedMs.set(key, watermarkMs);
    let result: Sample;
    try {
      result = field !== '' ? errorSample(Errno.EROFS) : slot.scale(await slot.write(value));
    } catch (e) {
      result = errorSample(toAgentError(e).errno ?? Errno.EIO);
    }
    this.#counters.desiredApplied++;
    if (!result.ok) warn(c.logger, 'desired: not applied', { key, errno: result.errno });
    const now = c.clock.monotonicMs();
    // A location field's echo is a plain state: `<key>.<field>.reported`.
    if (field === '') slot.remember(result, now);
    this.#slotContext.sink.echoed(record, field === '' && slot.isLocation, result, now);
  }

  /** Starts `channel`; one that cannot run here is rejected (an error state). */
  #start(channel: Channel, signature: number, events: readonly TransmitEvent[], now: number): void {
    const isLocation = channel.type === 'location';
    const provider = this.#c.providers.find((p) => p.types.includes(channel.type));
    if (provider === undefined) {
      return this.#reject(channel.key, `no provider for ${channel.type}`, Errno.EOPNOTSUPP, now, isLocation);
    }
    try {
      const slot = new ChannelSlot(channel, provider.create(channel), this.#slotContext, signature, events);
      this.#scheduler.add(slot, channel.scanIntervalMs);
      this.slots.set(channel.key, slot);
    } catch (e) {
      const error = toAgentError(e);
      this.#reject(channel.key, error.message, error.errno ?? Errno.EINVAL, now, isLocation);
    }
  }

  /**
   * Logs a channel that does not run (a target without its type: warn) and, when
   * `reported` (its key is known), reports `errno` on it.
   */
  #reject(key: string, reason: string, errno: number, now: number, isLocation: boolean, reported = true): void {
    this.#c.logger.log(errno === Errno.EOPNOTSUPP ? 'warn' : 'error', 'channel rejected', { key, reason, errno });
    if (!reported) return;
    this.#idle.add(key);
    this.#reporter.channel(key, isLocation, errorSample(errno), now);
  }

  /** Stops scanning `slot` and closes its driver. */
  remove(slot: ChannelSlot): void {
    this.#scheduler.remove(slot);
    slot.close();
    this.slots.delete(slot.key);
  }
}

/**
 * Stops every channel of `set`, closes its drivers and the providers' shared resources:
 * an agent's stop, which only a host calls (a board runs until it is switched off).
 */
export function closeChannels(set: ChannelSet, providers: readonly ChannelDriverProvider[]): void {
  for (const slot of [...set.slots.values()]) set.remove(slot);
  for (const provider of providers) {
    try {
      provider.close?.();
    } catch {
      // best effort
    }
  }
}
