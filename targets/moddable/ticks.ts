/**
 * Unwraps a wrapping millisecond tick counter into monotonic time.
 *
 * Moddable's `Time.ticks` comes from a 32-bit millisecond counter on ESP32 and
 * wraps after about 49.7 days; a device runs longer than that, and the core's
 * clock must never go backwards (src/ports.ts, Clock.monotonicMs). Signed or
 * unsigned, one wrap is one period of 2^32 ms.
 */
export class TickUnwrapper {
  #last: number;
  #offsetMs = 0;

  /** @param firstTicks the counter's value now. */
  constructor(firstTicks: number) {
    this.#last = firstTicks;
  }

  /**
   * Monotonic milliseconds for the counter value `ticks`. Must be called at
   * least once per wrap period (the agent's timers do, many times a second).
   */
  unwrap(ticks: number): number {
    if (ticks < this.#last) this.#offsetMs += 2 ** 32;
    this.#last = ticks;
    return ticks + this.#offsetMs;
  }
}
