/**
 * Turns reported samples into wire records (decisions.md section 4): a plain
 * channel writes `<key>.reported` (value or negative errno); a location channel
 * writes `<key>.<field>.reported` for each field present plus one measurement
 * of metric `<key>` with the Location object (an error goes to all seven field
 * states). Records are stamped with wall time; while the wall time is unknown
 * (before 2020) they are held with their monotonic time, bounded (oldest
 * dropped, counted), and stamped once the time is known.
 */
import type { CoreCounters } from '../agent/counters.js';
import type { Location, Sample } from '../agent/driver.js';
import type { WallTime } from '../time/wall-time.js';
import { isLocation } from '../transmit/values.js';
import { LocationFields } from '../wire.js';
import type { Batcher } from './batcher.js';
import type { Lane } from './outbox-options.js';
import { encodeRecord, stampTail } from './records.js';

/** A record waiting for the wall time: encoded up to its timestamp (records.ts). */
interface HeldRecord {
  lane: Lane;
  head: string;
  monotonicMs: number;
}

export class Reporter {
  /** The records waiting for the wall time, oldest first (the host's counters read their number). */
  readonly held: HeldRecord[] = [];
  readonly #wallTime: WallTime;
  readonly #batcher: Batcher;
  readonly #counters: CoreCounters;
  readonly #maxHeld: number;
  /** Held records dropped because the held buffer was full (oldest first). */
  droppedHeld = 0;

  /** `maxHeld`: records held while the wall time is unknown (default 2000). */
  constructor(wallTime: WallTime, batcher: Batcher, counters: CoreCounters, maxHeld = 2000) {
    this.#wallTime = wallTime;
    this.#batcher = batcher;
    this.#counters = counters;
    this.#maxHeld = maxHeld;
  }

  /**
   * Reports one channel sample taken at monotonic `monotonicMs`. `prompt`: the
   * sample answers a user's action (a desired echo) and goes out at once in
   * its own small batch (Batcher.add), not after the batch timer.
   */
  channel(key: string, isLocationChannel: boolean, sample: Sample, monotonicMs: number, prompt?: boolean): void {
    const ok = sample.ok;
    const value = ok ? sample.value : sample.errno;
    if (!isLocationChannel || (ok && !isLocation(value))) return this.#report('s', key, ok, value, monotonicMs, prompt);
    const copy: Record<string, number> = {};
    for (const field of LocationFields) {
      const v = ok ? (value as Location)[field] : value; // an error goes to every field
      if (v === undefined) continue;
      if (ok) copy[field] = v as number;
      this.#report('s', `${key}.${field}`, ok, v, monotonicMs, prompt);
    }
    if (ok) this.measurement(key, copy, monotonicMs, prompt);
  }

  measurement(metric: string, value: unknown, monotonicMs: number, prompt?: boolean): void {
    this.#report('m', metric, true, value, monotonicMs, prompt);
  }

  /** One record (a state's `name` without `.reported`; `value` is the errno when not `ok`), stamped or held. */
  #report(
    lane: Lane,
    name: string,
    ok: boolean,
    value: unknown,
    monotonicMs: number,
    prompt: boolean | undefined,
  ): void {
    this.#counters.reported++;
    const unixMs = this.#wallTime.toWallMs(monotonicMs);
    const head = encodeRecord(lane, name, ok, value);
    if (unixMs === undefined) return this.#hold({ lane, head, monotonicMs });
    if (this.held.length > 0) this.#release();
    this.#batcher.add(lane, head + stampTail(unixMs), prompt);
  }

  #hold(record: HeldRecord): void {
    // The first record held waits for the time (records are held only while it is unknown; a release empties all).
    if (this.held.push(record) === 1) this.#wallTime.onKnown(this.#onTimeKnown);
    else if (this.held.length > this.#maxHeld) {
      this.held.shift();
      this.droppedHeld++;
    }
  }

  readonly #onTimeKnown = (): void => this.#release();

  /** Stamps and batches every held record, oldest first (held again should the time be unknown). */
  #release(): void {
    for (const r of this.held.splice(0)) {
      const unixMs = this.#wallTime.toWallMs(r.monotonicMs);
      if (unixMs === undefined) this.#hold(r);
      else this.#batcher.add(r.lane, r.head + stampTail(unixMs));
    }
  }
}
