/**
 * One configured channel at run time, in one record: its driver, its transmit
 * decision (the slot is a TransmitDecider), its place in the scheduler, the
 * scan that ties them (sample, scale, then the sink decides and reports) and the write of a
 * desired value (type check, inverse scaling). The parsed channel is not kept:
 * the slot copies the few fields the running code needs, so a channel costs few
 * heap slots on XS (docs/agent.md, "Heap per channel"). Its fields are ES `#private`
 * (on XS, one more slot per instance for the class's private fields, paid for by
 * `isLocation`, a getter on the prototype); its private methods are TypeScript-private
 * (an ES `#method` would be a slot per instance).
 *
 * A scan allocates nothing for synchronous drivers (the scaled sample object is
 * reused, one for all slots); an async driver (a bus read) is awaited, and a scan that comes due
 * while the previous one is still pending is skipped and counted (no
 * overlapping reads).
 */
import type { Channel, TransmitEvent } from '../config/model.js';
import { scaleToValue, valueToRaw } from '../codec/scale.js';
import { Errno } from '../errno.js';
import type { ScanTask } from '../sched/scheduler.js';
import { TransmitDecider } from '../transmit/decider.js';
import type { CoreCounters } from './counters.js';
import type { DesiredRecord } from './desired.js';
import { errorSample, FAILED, type ChannelDriver, type Sample, type Value } from './driver.js';

/** Receives every scaled sample and every desired echo (the agent: agent-core.ts). */
export interface SampleSink {
  /**
   * Counts a sample taken (`sampled`) and reports it when the slot's transmit events let it
   * through (`slot.decide`); says whether it did.
   */
  sampled(slot: ChannelSlot, sample: Sample, monotonicMs: number): boolean;
  /** Reports the echo of a desired record on `<key>.reported` (ChannelSet.applyDesired). */
  echoed(record: DesiredRecord, isLocation: boolean, sample: Sample, monotonicMs: number): void;
}

/**
 * What every slot of an agent shares: one object, not fields per channel. `scaled` is
 * the one scaled sample all slots reuse (a sample is handed on synchronously; whoever
 * keeps it copies it). ChannelSet makes the one of its agent.
 */
export interface SlotContext {
  readonly sink: SampleSink;
  readonly counters: CoreCounters;
  readonly scaled: { ok: true; value: number };
}

/** What a channel accepts as a desired value; `none` and `location`: nothing (read-only). */
type WriteKind = 'boolean' | 'number' | 'integer' | 'none' | 'location';

function writeKindOf(channel: Channel): WriteKind {
  const type = channel.type;
  if (type === 'location') return type;
  if ('readOnly' in channel && channel.readOnly) return 'none';
  if (type === 'custom')
    return channel.customType === 'decimal' ? 'number' : channel.customType === 'number' ? 'integer' : 'boolean';
  if (type === 'modbus') return channel.registerType === 'coil' || channel.dataType === 'bool' ? 'boolean' : 'number';
  return type === 'digitalOutput' ? 'boolean' : type === 'analogOutput' || type === 'can' ? 'number' : 'none';
}

/** The desired value in the channel's kind (booleans also as 0/1; no strings), or undefined (-EINVAL). */
function coerce(value: Value, kind: WriteKind): boolean | number | undefined {
  if (kind === 'boolean')
    return value === 1 || value === 0 ? value === 1 : typeof value === 'boolean' ? value : undefined;
  return Number.isFinite(value) && (kind !== 'integer' || Number.isInteger(value)) ? (value as number) : undefined;
}

/** The channel types whose raw numbers are scaled (decisions 2); others keep gain 1, offset 0. */
const scaledTypes: readonly string[] = ['analogInput', 'analogOutput', 'modbus', 'can'];
/** `pendingSinceMs` when no async sample is awaited, and once the slot is closed. */
const IDLE = -Infinity;
const CLOSED = Infinity;

export class ChannelSlot extends TransmitDecider implements ScanTask {
  declare readonly key: string;
  /** A number that changes when the channel's settings change (ChannelSet's diff). */
  declare readonly signature: number;
  readonly #driver: ChannelDriver;
  readonly #context: SlotContext;
  readonly #writeKind: WriteKind;
  /** reported = raw x gain + offset (decisions 2); 1 and 0 for the types that are not scaled. */
  readonly #gain: number;
  readonly #offset: number;
  /** Set by the scheduler when it adds the slot (Scheduler.add), before any scan. */
  declare intervalMs: number;
  declare dueMs: number;
  /** The scan time of the pending async sample; IDLE, or CLOSED. */
  #pendingSinceMs = IDLE;

  /** @param events the channel's transmit events, or an equal list shared with other channels. */
  constructor(
    channel: Channel,
    driver: ChannelDriver,
    context: SlotContext,
    signature: number,
    events: readonly TransmitEvent[],
  ) {
    super(events);
    this.key = channel.key;
    this.signature = signature;
    this.#driver = driver;
    this.#context = context;
    this.#writeKind = writeKindOf(channel);
    const scaled = scaledTypes.includes(channel.type);
    this.#gain = scaled ? channel.scaleGain : 1;
    this.#offset = scaled ? channel.scaleOffset : 0;
  }

  get isLocation(): boolean {
    return this.#writeKind === 'location';
  }

  scan(nowMs: number): void {
    if (this.#pendingSinceMs === CLOSED) return;
    if (this.#pendingSinceMs !== IDLE) {
      this.#context.counters.overruns++;
      return;
    }
    let result: Sample | Promise<Sample> | undefined;
    try {
      result = this.#driver.sample();
    } catch {
      result = FAILED;
    }
    if (result === undefined) return;
    if (result instanceof Promise) {
      this.#pendingSinceMs = nowMs;
      // Bound per async scan, not per channel: a pin channel never pays for them (heap per channel on XS).
      result.then(
        (sample) => this.settle(sample),
        () => this.settle(FAILED),
      );
      return;
    }
    this.handle(result, nowMs);
  }

  /** Scales a raw number (decisions 2) into the shared scaled sample; other samples pass through. */
  scale(sample: Sample): Sample {
    if (!sample.ok || typeof sample.value !== 'number') return sample;
    const scaled = this.#context.scaled;
    scaled.value = scaleToValue(sample.value, this.#gain, this.#offset);
    return scaled;
  }

  /**
   * Writes a desired value: -EROFS on a read-only channel, -EINVAL when the type
   * does not fit, -ERANGE out of range after inverse scaling (decisions 2); else
   * what the driver reads back (raw: `scale` it). A driver's throw rejects.
   */
  async write(value: Value): Promise<Sample> {
    const driver = this.#driver;
    const kind = this.#writeKind;
    if (kind === 'none' || kind === 'location' || driver.applyDesired === undefined) return errorSample(Errno.EROFS);
    const typed = coerce(value, kind);
    if (typed === undefined) return errorSample(Errno.EINVAL);
    const raw = typeof typed === 'boolean' ? typed : valueToRaw(typed, this.#gain, this.#offset, driver.rawRange);
    return raw === undefined ? errorSample(Errno.ERANGE) : await driver.applyDesired(raw);
  }

  /** Stops reporting (a late async sample is discarded) and closes the driver. */
  close(): void {
    this.#pendingSinceMs = CLOSED;
    try {
      this.#driver.close();
    } catch {
      // closing is best effort; the channel is gone either way
    }
  }

  private handle(raw: Sample, nowMs: number): void {
    this.#context.sink.sampled(this, this.scale(raw), nowMs);
  }

  private settle(sample: Sample): void {
    if (this.#pendingSinceMs === CLOSED) return;
    const at = this.#pendingSinceMs;
    this.#pendingSinceMs = IDLE;
    this.handle(sample, at);
  }
}
