/**
 * Report-on-change for one channel: decisions.md section 3, rule by rule.
 *
 * The decider keeps the last reported value or error, its (monotonic) time and
 * one Schmitt-trigger arm per threshold event, and answers once per scan
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
import { copyLocation, deltaReached, isLocation, sameValue } from './values.js';

/** A threshold's arm: not known yet (no numeric sample so far), below, above. */
const UNKNOWN = 0;
const BELOW = 1;
const ABOVE = 2;
/** `lastState` before anything was reported; afterwards OK (a value) or the errno (any finite number). */
const NOT_REPORTED = -Infinity;
const OK = Infinity;
const NO_ARMS: number[] = [];

/**
 * Few fields on purpose (heap per channel on XS): the last outcome is one
 * number, the last Location is kept in `lastValue` itself (a copy the decider
 * owns), and the Schmitt triggers exist only for channels with a threshold event.
 * The agent's ChannelSlot extends this class, so a channel is one record. Its
 * members are TypeScript-private, not ES `#private`: on XS, ES private fields
 * cost extra heap slots per instance (measured by bench:xs, about 4 per channel).
 */
export class TransmitDecider {
  /** NOT_REPORTED, OK, or the last reported errno (negative). */
  private lastState = NOT_REPORTED;
  private lastValue: SampleValue = 0;
  private lastReportMs = 0;
  /** Per event: the arm of its Schmitt trigger; one shared empty array without threshold events. */
  declare private readonly arms: number[];
  declare private readonly events: readonly TransmitEvent[];

  constructor(events: readonly TransmitEvent[]) {
    this.events = events;
    this.arms = events.some((e) => e.type === 'threshold') ? events.map(() => UNKNOWN) : NO_ARMS;
  }

  /** Whether `sample`, taken at monotonic `nowMs`, is reported; if so it becomes the last reported. */
  decide(sample: Sample, nowMs: number): boolean {
    const events = this.events;
    const state = this.lastState;
    const last = this.lastValue;
    // Rule 1 (first sample), rule 2 (value <-> error, another errno), rule 3 (no events).
    let report = state === NOT_REPORTED || (sample.ok ? state !== OK : sample.errno !== state) || events.length === 0;
    // Rule 8: the OR of all events; every event is evaluated, so that each trigger moves on every sample.
    for (let i = 0; i < events.length; i++) {
      const event = events[i]!;
      if (event.type === 'interval') {
        if (nowMs - this.lastReportMs >= event.intervalMs) report = true; // rule 6
      } else if (!sample.ok) {
        // an error takes no value event
      } else if (event.type === 'threshold') {
        if (crossed(this.arms, i, event.threshold, event.hysteresis, sample.value)) report = true; // rule 7
      } else if (
        event.type === 'change' // rule 4 (NaN equals NaN), else rule 5
          ? !sameValue(sample.value, last)
          : deltaReached(sample.value, last, event.minimalChange)
      ) {
        report = true;
      }
    }
    if (report) this.remember(sample, nowMs);
    return report;
  }

  /** Records `sample` as reported without deciding (e.g. a desired value's echo). */
  remember(sample: Sample, nowMs: number): void {
    this.lastReportMs = nowMs;
    if (sample.ok) {
      this.lastState = OK;
      const v = sample.value;
      const last = this.lastValue;
      this.lastValue = isLocation(v) ? copyLocation(isLocation(last) ? last : {}, v) : v;
    } else {
      this.lastState = sample.errno;
    }
  }
}

/**
 * Moves the Schmitt trigger `arms[i]`: up at value >= threshold, down at
 * value <= threshold - hysteresis. True on a crossing; the first numeric sample
 * only sets the arm, and NaN or a non-number moves nothing.
 */
function crossed(arms: number[], i: number, threshold: number, hysteresis: number, value: SampleValue): boolean {
  if (typeof value !== 'number' || value !== value) return false;
  const arm = arms[i];
  const up = arm === ABOVE ? value > threshold - hysteresis : value >= threshold;
  arms[i] = up ? ABOVE : BELOW;
  return arm !== UNKNOWN && up !== (arm === ABOVE);
}
