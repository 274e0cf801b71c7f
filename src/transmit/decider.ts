/**
 * Report-on-change for one channel: decisions.md section 3, rule by rule.
 *
 * The decider keeps the last reported value or error, its (monotonic) time and
 * one Schmitt-trigger arm state per threshold event, and answers once per scan
 * whether this sample is reported. It allocates nothing per scan (the last
 * Location is copied into an object owned by the decider).
 *
 * Value kinds: numbers take every event. Locations: `change` = any field
 * differs; `delta` = great-circle distance between the lat/lon pairs >=
 * minimalChange metres (or lat/lon appearing or disappearing); `threshold` never
 * fires. Booleans and strings: `delta` fires on any change, `threshold` never.
 */
import type { Location, Sample, SampleValue } from '../agent/driver.js';
import type { TransmitEvent } from '../config/model.js';
import { copyLocation, distanceMeters, isLocation, sameValue } from './values.js';

const enum Arm {
  Unknown = 0,
  Below = 1,
  Above = 2,
}

const NO_ARMS: Arm[] = [];
const NO_CROSSINGS: boolean[] = [];

export class TransmitDecider {
  private hasReported = false;
  private lastOk = false;
  private lastValue: SampleValue = 0;
  /** Created on the first reported location only: most channels never need it (heap per channel on XS). */
  private lastLocation: Location | undefined;
  private lastErrno = 0;
  private lastReportMs = 0;
  /** Schmitt trigger state per event; shared empty arrays when no event is a threshold (most channels). */
  private readonly arms: Arm[];
  private readonly crossed: boolean[];

  constructor(private readonly events: readonly TransmitEvent[]) {
    const thresholds = events.some((e) => e.type === 'threshold');
    this.arms = thresholds ? events.map(() => Arm.Unknown) : NO_ARMS;
    this.crossed = thresholds ? events.map(() => false) : NO_CROSSINGS;
  }

  /** Forgets everything: the next sample is reported (rule 1). */
  reset(): void {
    this.hasReported = false;
    for (let i = 0; i < this.arms.length; i++) this.arms[i] = Arm.Unknown;
  }

  /** Whether `sample`, taken at monotonic `nowMs`, is reported; if so it becomes the last reported. */
  decide(sample: Sample, nowMs: number): boolean {
    this.updateArms(sample);
    if (this.shouldReport(sample, nowMs)) {
      this.remember(sample, nowMs);
      return true;
    }
    return false;
  }

  /** Records `sample` as reported without deciding (e.g. a desired value's echo). */
  remember(sample: Sample, nowMs: number): void {
    this.hasReported = true;
    this.lastReportMs = nowMs;
    this.lastOk = sample.ok;
    if (sample.ok) {
      const v = sample.value;
      this.lastValue = isLocation(v) ? copyLocation((this.lastLocation ??= {}), v) : v;
    } else {
      this.lastErrno = sample.errno;
    }
  }

  private shouldReport(sample: Sample, nowMs: number): boolean {
    if (!this.hasReported) return true; // rule 1
    if (sample.ok !== this.lastOk) return true; // rule 2
    if (!sample.ok && sample.errno !== this.lastErrno) return true; // rule 2
    if (this.events.length === 0) return true; // rule 3
    let report = false; // rule 8: OR of all events
    for (let i = 0; i < this.events.length; i++) {
      const event = this.events[i]!;
      switch (event.type) {
        case 'change': {
          // rule 4; numbers compared inline (the common case, without a call per scan)
          if (!sample.ok) break;
          const v = sample.value;
          const last = this.lastValue;
          if (typeof v === 'number' && typeof last === 'number') {
            if (v !== last && (v === v || last === last)) report = true;
          } else if (!sameValue(v, last)) report = true;
          break;
        }
        case 'delta': // rule 5
          if (sample.ok && this.deltaReached(sample.value, event.minimalChange)) report = true;
          break;
        case 'interval': // rule 6
          if (nowMs - this.lastReportMs >= event.intervalMs) report = true;
          break;
        case 'threshold': // rule 7
          if (this.crossed[i] === true) report = true;
          break;
      }
    }
    return report;
  }

  private deltaReached(value: SampleValue, minimalChange: number): boolean {
    const last = this.lastValue;
    if (typeof value === 'number' && typeof last === 'number') return Math.abs(value - last) >= minimalChange;
    if (isLocation(value) && isLocation(last)) {
      const a = value.lat !== undefined && value.lon !== undefined;
      const b = last.lat !== undefined && last.lon !== undefined;
      if (a !== b) return true;
      if (!a) return false;
      return distanceMeters(last.lat!, last.lon!, value.lat!, value.lon!) >= minimalChange;
    }
    return !sameValue(value, last);
  }

  /** Moves each threshold's Schmitt trigger on every numeric sample, reported or not. */
  private updateArms(sample: Sample): void {
    if (this.arms === NO_ARMS) return;
    for (let i = 0; i < this.events.length; i++) {
      this.crossed[i] = false;
      const event = this.events[i]!;
      if (event.type !== 'threshold' || !sample.ok || typeof sample.value !== 'number') continue;
      const v = sample.value;
      if (v !== v) continue; // NaN moves no trigger
      const arm = this.arms[i];
      if (arm === Arm.Unknown) {
        this.arms[i] = v >= event.threshold ? Arm.Above : Arm.Below;
      } else if (arm === Arm.Below && v >= event.threshold) {
        this.arms[i] = Arm.Above;
        this.crossed[i] = true;
      } else if (arm === Arm.Above && v <= event.threshold - event.hysteresis) {
        this.arms[i] = Arm.Below;
        this.crossed[i] = true;
      }
    }
  }
}
