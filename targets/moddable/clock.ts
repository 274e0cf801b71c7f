/**
 * The Clock port on Moddable: monotonic time from `Time.ticks`, timers from the
 * `timer` module, wall time from `Date.now()` (set by SNTP or the HTTP `Date`
 * header through `Time.set`; a fresh ESP32 boots in 1970, decisions.md 4).
 * `Time.ticks` wraps on ESP32; `monotonicMs` unwraps it (ticks.ts).
 */
import Time from 'time';
import Timer from 'timer';
import type { Clock, TimerHandle } from '../../src/ports.js';
import { TickUnwrapper } from './ticks.js';

export class ModdableClock implements Clock {
  readonly #ticks = new TickUnwrapper(Time.ticks);

  monotonicMs(): number {
    return this.#ticks.unwrap(Time.ticks);
  }

  wallMs(): number {
    return Date.now();
  }

  /**
   * A one-shot `Timer` is its own handle: `Timer.clear` ignores one that
   * already fired (the SDK drops its host data when it fires) or was cleared.
   * The callback is called without the timer the SDK passes.
   */
  setTimer(callback: () => void, delayMs: number): TimerHandle {
    return Timer.set(() => callback(), Math.max(0, delayMs)) as TimerHandle;
  }

  clearTimer(handle: TimerHandle): void {
    Timer.clear(handle as Timer);
  }

  /** Sets the board's wall clock (Unix milliseconds), e.g. from SNTP or a `Date` header. */
  setWallMs(unixMs: number): void {
    Time.set(Math.floor(unixMs / 1000));
  }
}
