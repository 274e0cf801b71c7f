/**
 * One configured channel at run time: its driver, its transmit decider, and
 * the scan that ties them (sample, scale, decide, report). A scan allocates
 * nothing for synchronous drivers (the scaled sample object is reused); an
 * async driver (a bus read) is awaited, and a scan that comes due while the
 * previous one is still pending is skipped and counted (no overlapping reads).
 */
import type { Channel } from '../config/model.js';
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

const scaledTypes: ReadonlySet<string> = new Set(['analogInput', 'analogOutput', 'modbus', 'can']);
const FAILED: Sample = { ok: false, errno: Errno.EIO };

export class ChannelSlot implements ScanTask {
  readonly decider: TransmitDecider;
  readonly scaled: boolean;
  private busy = false;
  private closed = false;
  private pendingMs = 0;
  private readonly scaledSample: { ok: true; value: number } = { ok: true, value: 0 };

  constructor(
    readonly channel: Channel,
    readonly driver: ChannelDriver,
    private readonly sink: SampleSink,
    private readonly counters: AgentCounters,
  ) {
    this.decider = new TransmitDecider(channel.transmitEvents);
    this.scaled = scaledTypes.has(channel.type);
  }

  get key(): string {
    return this.channel.key;
  }

  scan(nowMs: number): void {
    if (this.closed) return;
    if (this.busy) {
      this.counters.overruns++;
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
      this.busy = true;
      this.pendingMs = nowMs;
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
    this.scaledSample.value = scaleToValue(sample.value, this.channel.scaleGain, this.channel.scaleOffset);
    return this.scaledSample;
  }

  /** Stops reporting (a late async sample is discarded) and closes the driver. */
  close(): void {
    this.closed = true;
    try {
      this.driver.close();
    } catch {
      // closing is best effort; the channel is gone either way
    }
  }

  private handle(raw: Sample, nowMs: number): void {
    if (this.closed) return;
    this.counters.sampled++;
    const sample = this.scale(raw);
    this.sink.observeSample?.(this.channel.key, sample);
    if (this.decider.decide(sample, nowMs)) this.sink.reportSample(this, sample, nowMs);
  }

  private settle(sample: Sample): void {
    this.busy = false;
    this.handle(sample, this.pendingMs);
  }
}
