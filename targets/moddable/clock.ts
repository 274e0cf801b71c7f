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

interface ModdableTimer extends TimerHandle {
  timer: Timer | undefined;
}

export class ModdableClock implements Clock {
  readonly #ticks = new TickUnwrapper(Time.ticks);

  monotonicMs(): number {
    return this.#ticks.unwrap(Time.ticks);
  }

  wallMs(): number {
    return Date.now();
  }

  setTimer(callback: () => void, delayMs: number): TimerHandle {
    const handle: ModdableTimer = { timer: undefined };
    handle.timer = Timer.set(
      () => {
        handle.timer = undefined;
        callback();
      },
      Math.max(0, delayMs),
    );
    return handle;
  }

  clearTimer(handle: TimerHandle): void {
    const h = handle as ModdableTimer;
    if (h.timer !== undefined) Timer.clear(h.timer);
    h.timer = undefined;
  }

  /** Sets the board's wall clock (Unix milliseconds), e.g. from SNTP or a `Date` header. */
  setWallMs(unixMs: number): void {
    Time.set(Math.floor(unixMs / 1000));
  }
}
