/**
 * Unwraps a wrapping millisecond tick counter into monotonic time.
 *
 * Moddable's `Time.ticks` comes from a 32-bit millisecond counter on ESP32 and
 * wraps after about 49.7 days; a device runs longer than that, and the core's
 * clock must never go backwards (src/ports.ts, Clock.monotonicMs).
 */

/** Period of the counter, milliseconds. */
export const TICKS_WRAP_MS = 2 ** 32;

export class TickUnwrapper {
  private last: number;
  private offsetMs = 0;

  /** @param firstTicks the counter's value now. */
  constructor(
    firstTicks: number,
    private readonly wrapMs = TICKS_WRAP_MS,
  ) {
    this.last = firstTicks;
  }

  /**
   * Monotonic milliseconds for the counter value `ticks`. Must be called at
   * least once per wrap period (the agent's timers do, many times a second).
   */
  unwrap(ticks: number): number {
    if (ticks < this.last) this.offsetMs += this.wrapMs;
    this.last = ticks;
    return ticks + this.offsetMs;
  }
}
