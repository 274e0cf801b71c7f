/**
 * Report-on-change for one channel: decisions.md section 3, rule by rule.
 *
 * The decider keeps the last reported value or error, its (monotonic) time and
 * one Schmitt-trigger arm state per threshold event, and answers once per scan
 * whether this sample is reported. It allocates nothing per scan (the last
 * Location is copied into an object owned by the decider, created once).
 *
 * Value kinds: numbers take every event. Locations: `change` = any field
 * differs; `delta` = great-circle distance between the lat/lon pairs >=
 * minimalChange metres (or lat/lon appearing or disappearing); `threshold` never
 * fires. Booleans and strings: `delta` fires on any change, `threshold` never.
 */
import type { Sample, SampleValue } from '../agent/driver.js';
import type { TransmitEvent } from '../config/model.js';
import { copyLocation, distanceMeters, isLocation, sameValue } from './values.js';

const enum Arm {
  Unknown = 0,
  Below = 1,
  Above = 2,
}

/** `lastState` before anything was reported; afterwards OK (a value) or the errno (any finite number). */
const NOT_REPORTED = -Infinity;
const OK = Infinity;
const NO_TRIGGERS: number[] = [];

/**
 * Few fields on purpose (heap per channel on XS): the last outcome is one
 * number, the last Location is kept in `lastValue` itself (a copy the decider
 * owns), and the Schmitt triggers exist only for channels with a threshold event.
 * The agent's ChannelSlot extends this class, so a channel is one record.
 */
export class TransmitDecider {
  /** NOT_REPORTED, OK, or the last reported errno (negative). */
  #lastState = NOT_REPORTED;
  #lastValue: SampleValue = 0;
  #lastReportMs = 0;
  /** Per event: the arm at [2i] and whether this sample crossed at [2i+1]; shared empty without thresholds. */
  readonly #triggers: number[];

  readonly #events: readonly TransmitEvent[];

  constructor(events: readonly TransmitEvent[]) {
    this.#events = events;
    this.#triggers = events.some((e) => e.type === 'threshold') ? events.flatMap(() => [Arm.Unknown, 0]) : NO_TRIGGERS;
  }

  /** Whether `sample`, taken at monotonic `nowMs`, is reported; if so it becomes the last reported. */
  decide(sample: Sample, nowMs: number): boolean {
    this.#updateTriggers(sample);
    if (this.#shouldReport(sample, nowMs)) {
      this.remember(sample, nowMs);
      return true;
    }
    return false;
  }

  /** Records `sample` as reported without deciding (e.g. a desired value's echo). */
  remember(sample: Sample, nowMs: number): void {
    this.#lastReportMs = nowMs;
    if (sample.ok) {
      this.#lastState = OK;
      const v = sample.value;
      const last = this.#lastValue;
      this.#lastValue = isLocation(v) ? copyLocation(isLocation(last) ? last : {}, v) : v;
    } else {
      this.#lastState = sample.errno;
    }
  }

  #shouldReport(sample: Sample, nowMs: number): boolean {
    if (this.#lastState === NOT_REPORTED) return true; // rule 1
    if (sample.ok ? this.#lastState !== OK : sample.errno !== this.#lastState) return true; // rule 2
    if (this.#events.length === 0) return true; // rule 3
    let report = false; // rule 8: OR of all events
    for (let i = 0; i < this.#events.length; i++) {
      const event = this.#events[i]!;
      switch (event.type) {
        case 'change': {
          // rule 4; numbers compared inline (the common case, without a call per scan)
          if (!sample.ok) break;
          const v = sample.value;
          const last = this.#lastValue;
          if (typeof v === 'number' && typeof last === 'number') {
            if (v !== last && (v === v || last === last)) report = true;
          } else if (!sameValue(v, last)) report = true;
          break;
        }
        case 'delta': // rule 5
          if (sample.ok && this.#deltaReached(sample.value, event.minimalChange)) report = true;
          break;
        case 'interval': // rule 6
          if (nowMs - this.#lastReportMs >= event.intervalMs) report = true;
          break;
        case 'threshold': // rule 7
          if (this.#triggers[2 * i + 1] === 1) report = true;
          break;
      }
    }
    return report;
  }

  #deltaReached(value: SampleValue, minimalChange: number): boolean {
    const last = this.#lastValue;
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
  #updateTriggers(sample: Sample): void {
    const t = this.#triggers;
    if (t === NO_TRIGGERS) return;
    for (let i = 0; i < this.#events.length; i++) {
      t[2 * i + 1] = 0;
      const event = this.#events[i]!;
      if (event.type !== 'threshold' || !sample.ok || typeof sample.value !== 'number') continue;
      const v = sample.value;
      if (v !== v) continue; // NaN moves no trigger
      const arm = t[2 * i];
      if (arm === Arm.Unknown) {
        t[2 * i] = v >= event.threshold ? Arm.Above : Arm.Below;
      } else if (arm === Arm.Below && v >= event.threshold) {
        t[2 * i] = Arm.Above;
        t[2 * i + 1] = 1;
      } else if (arm === Arm.Above && v <= event.threshold - event.hysteresis) {
        t[2 * i] = Arm.Below;
        t[2 * i + 1] = 1;
      }
    }
  }
}
