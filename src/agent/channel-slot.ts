/**
 * One configured channel at run time, in one record: its driver, its transmit
 * decision (the slot is a TransmitDecider), its place in the scheduler, and the
 * scan that ties them (sample, scale, decide, report). The parsed channel is
 * not kept: the slot copies the few fields the running code needs, so a channel
 * costs few heap slots on XS (docs/agent.md, "Heap per channel").
 *
 * A scan allocates nothing for synchronous drivers (the scaled sample object is
 * reused, one for all slots); an async driver (a bus read) is awaited, and a scan that comes due
 * while the previous one is still pending is skipped and counted (no
 * overlapping reads).
 */
import type { Channel, ChannelType, TransmitEvent } from '../config/model.js';
import { scaleToValue } from '../codec/scale.js';
import { Errno } from '../errno.js';
import type { ScanTask } from '../sched/scheduler.js';
import { TransmitDecider } from '../transmit/decider.js';
import type { AgentCounters } from './counters.js';
import type { ChannelDriver, Sample } from './driver.js';

/** Receives the samples that transmit events let through. */
export interface SampleSink {
  reportSample(slot: ChannelSlot, sample: Sample, monotonicMs: number): void;
  /** Optional observer of every scaled sample (displays); absent on devices. */
  readonly observeSample?: ((key: string, sample: Sample) => void) | undefined;
}

/**
 * What every slot of an agent shares: one object, not fields per channel. `scaled` is
 * the one scaled sample all slots reuse (a sample is handed on synchronously; whoever
 * keeps it copies it).
 */
export interface SlotContext {
  readonly sink: SampleSink;
  readonly counters: AgentCounters;
  readonly scaled: { ok: true; value: number };
}

/** A context for the slots of one agent. */
export function slotContext(sink: SampleSink, counters: AgentCounters): SlotContext {
  return { sink, counters, scaled: { ok: true, value: 0 } };
}

/** What a channel accepts as a desired value; `none`: read-only (an input, or `readOnly`). */
export type WriteKind = 'boolean' | 'number' | 'integer' | 'none';

function expectedKind(channel: Channel): WriteKind {
  switch (channel.type) {
    case 'digitalOutput':
      return 'boolean';
    case 'analogOutput':
      return 'number';
    case 'custom':
      return channel.customType === 'boolean' ? 'boolean' : channel.customType === 'number' ? 'integer' : 'number';
    case 'modbus':
      return channel.registerType === 'coil' || channel.dataType === 'bool' ? 'boolean' : 'number';
    case 'can':
      return 'number';
    default:
      return 'none';
  }
}

/** The desired values `channel` takes: none when it is read-only. */
export function writeKindOf(channel: Channel): WriteKind {
  return 'readOnly' in channel && channel.readOnly ? 'none' : expectedKind(channel);
}

const scaledTypes: ReadonlySet<string> = new Set(['analogInput', 'analogOutput', 'modbus', 'can']);
const FAILED: Sample = { ok: false, errno: Errno.EIO };
/** `pendingSinceMs` when no async sample is awaited, and once the slot is closed. */
const IDLE = -Infinity;
const CLOSED = Infinity;

export class ChannelSlot extends TransmitDecider implements ScanTask {
  readonly key: string;
  readonly type: ChannelType;
  readonly writeKind: WriteKind;
  /** Whether raw numbers of this channel are scaled: reported = raw x gain + offset (decisions 2). */
  readonly scaled: boolean;
  readonly gain: number;
  readonly offset: number;
  /** Set by the scheduler. */
  intervalMs = 0;
  dueMs = 0;
  /** The scan time of the pending async sample; IDLE, or CLOSED. */
  private pendingSinceMs = IDLE;

  /**
   * @param signature a number that changes when the channel's settings change (ChannelSet's diff).
   * @param events the channel's transmit events, or an equal list shared with other channels.
   */
  constructor(
    channel: Channel,
    readonly driver: ChannelDriver,
    private readonly context: SlotContext,
    readonly signature = 0,
    events: readonly TransmitEvent[] = channel.transmitEvents,
  ) {
    super(events);
    this.key = channel.key;
    this.type = channel.type;
    this.writeKind = writeKindOf(channel);
    this.gain = channel.scaleGain;
    this.offset = channel.scaleOffset;
    this.scaled = scaledTypes.has(channel.type);
  }

  get isLocation(): boolean {
    return this.type === 'location';
  }

  scan(nowMs: number): void {
    if (this.pendingSinceMs === CLOSED) return;
    if (this.pendingSinceMs !== IDLE) {
      this.context.counters.overruns++;
      return;
    }
    let result: Sample | Promise<Sample> | undefined;
    try {
      result = this.driver.sample();
    } catch {
      result = FAILED;
    }
    if (result === undefined) return;
    if (result instanceof Promise) {
      this.pendingSinceMs = nowMs;
      // Bound per async scan, not per channel: a pin channel never pays for them (heap per channel on XS).
      result.then(
        (sample) => this.settle(sample),
        () => this.settle(FAILED),
      );
      return;
    }
    this.handle(result, nowMs);
  }

  /** Scales a raw sample of a scaled channel type (decisions 2); other samples pass through. */
  scale(sample: Sample): Sample {
    if (!this.scaled || !sample.ok || typeof sample.value !== 'number') return sample;
    const scaled = this.context.scaled;
    scaled.value = scaleToValue(sample.value, this.gain, this.offset);
    return scaled;
  }

  /** Stops reporting (a late async sample is discarded) and closes the driver. */
  close(): void {
    this.pendingSinceMs = CLOSED;
    try {
      this.driver.close();
    } catch {
      // closing is best effort; the channel is gone either way
    }
  }

  private handle(raw: Sample, nowMs: number): void {
    const { sink, counters } = this.context;
    counters.sampled++;
    const sample = this.scale(raw);
    sink.observeSample?.(this.key, sample);
    if (this.decide(sample, nowMs)) sink.reportSample(this, sample, nowMs);
  }

  private settle(sample: Sample): void {
    if (this.pendingSinceMs === CLOSED) return;
    const at = this.pendingSinceMs;
    this.pendingSinceMs = IDLE;
    this.handle(sample, at);
  }
}
