/**
 * A FixTracker that tells where epochs end, for the host tools and tests (the
 * firmware needs only the current fix, fix-tracker.ts). `epochs` counts the
 * UTC times seen; `onEpochEnd` hears an epoch when a timed sentence brings a
 * new UTC time, as the epoch stood before that sentence was applied.
 */
import type { Clock } from '../ports.js';
import type { LocationFields } from '../wire.js';
import { FixTracker } from './fix-tracker.js';
import type { NmeaFields } from './nmea-fields.js';

/** What an ended epoch showed. */
export type EpochView = Pick<FixTracker, 'valid' | 'timeOfDayMs' | 'lastValidFixMs' | (typeof LocationFields)[number]>;

export interface EpochTrackerOptions {
  clock: Clock;
  /** Called when an epoch ends, with the tracker's state before the sentence of the next one. */
  onEpochEnd?: ((epoch: EpochView) => void) | undefined;
}

export class EpochTracker extends FixTracker {
  /** Epochs seen (UTC time changes). */
  epochs = 0;
  readonly #onEpochEnd: ((epoch: EpochView) => void) | undefined;

  constructor(options: EpochTrackerOptions) {
    super(options);
    this.#onEpochEnd = options.onEpochEnd;
  }

  override onLine(f: NmeaFields): boolean {
    const before = this.timeOfDayMs;
    const ended = this.#onEpochEnd !== undefined && before === before ? this.#view() : undefined;
    const used = super.onLine(f);
    const now = this.timeOfDayMs;
    if (now === now && now !== before) {
      this.epochs++;
      if (ended !== undefined) this.#onEpochEnd?.(ended);
    }
    return used;
  }

  /** A copy of the state an epoch's reader sees. */
  #view(): EpochView {
    const { valid, timeOfDayMs, lastValidFixMs, lat, lon, alt, pdop, hdop, vdop, sats } = this;
    return { valid, timeOfDayMs, lastValidFixMs, lat, lon, alt, pdop, hdop, vdop, sats };
  }
}
