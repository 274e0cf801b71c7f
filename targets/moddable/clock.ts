/**
 * The Clock port on Moddable: monotonic time from `Time.ticks`, timers from the
 * `timer` module, wall time from `Date.now()` (set by SNTP or the HTTP `Date`
 * header through `Time.set`; a fresh ESP32 boots in 1970, decisions.md 4).
 * `Time.ticks` wraps on ESP32; `monotonicMs` unwraps it (ticks.ts).
 */
import Time from 'time';
import Timer from 'timer';
import type { Clock, ReusableTimer, TimerHandle } from '../../src/ports.js';
import { TickUnwrapper } from './ticks.js';

/**
 * No function is made here at run time: XS copies the byte code of a function that preloaded code makes at run
 * time into the chunk heap, for as long as it lives (14 to 16 KB of a board's chunks at 32 channels were such
 * copies). So the timers' callbacks are module functions, bound, and a reusable timer is a class instance.
 */
function call(callback: () => void): void {
  callback();
}

/** The SDK timer's callback: unscheduled, so that it fires once per arming (see `timer` below). */
function fire(timer: SdkTimer): void {
  Timer.schedule(timer.t);
  timer.callback();
}

class SdkTimer implements ReusableTimer {
  declare readonly t: Timer;
  declare readonly callback: () => void;

  constructor(callback: () => void) {
    this.callback = callback;
    this.t = Timer.repeat(fire.bind(undefined, this), 1);
    Timer.schedule(this.t);
  }

  schedule(delayMs: number): void {
    Timer.schedule(this.t, (delayMs = Math.max(1, delayMs)), delayMs);
  }

  unschedule(): void {
    Timer.schedule(this.t);
  }
}

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
    return Timer.set(call.bind(undefined, callback), Math.max(0, delayMs)) as TimerHandle;
  }

  clearTimer(handle: TimerHandle | undefined): void {
    if (handle !== undefined) Timer.clear(handle as Timer);
  }

  /**
   * One SDK timer, made once and kept: a repeating one, unscheduled before each
   * callback, so that it fires once per arming. Arming is `Timer.schedule` with
   * equal initial and repeat intervals: a repeat of 0 would make the SDK clear
   * the timer when a callback that re-armed it returns, and on lin (glib)
   * unequal ones re-armed inside the callback would fire twice. Allocates nothing.
   */
  timer(callback: () => void): ReusableTimer {
    return new SdkTimer(callback);
  }

  /** Sets the board's wall clock (Unix milliseconds), e.g. from SNTP or a `Date` header. */
  setWallMs(unixMs: number): void {
    Time.set(Math.floor(unixMs / 1000));
  }
}
