/**
 * One timer wheel for a whole fleet: a Clock (the core's port) whose timers
 * live in a hashed wheel of `slots` buckets, `tickMs` wide, driven by a single
 * host timer of the underlying clock. A thousand agents arm and clear tens of
 * thousands of timers a second (scans, batch windows, keep-alives, backoff);
 * here each arm and clear is O(1) and the host sees one timer, armed only while
 * the wheel holds any.
 *
 * A timer fires on the first tick at or after its due time, so at most `tickMs`
 * late and never early; timers due on the same tick fire in the order they were
 * armed. Callbacks that throw are counted (`failures`) and do not stop the tick.
 */
import type { Clock, ReusableTimer, TimerHandle } from '../../src/ports.js';

interface WheelTimer extends TimerHandle {
  callback: (() => void) | undefined;
  dueTick: number;
}

export interface TimerWheelOptions {
  /** Width of one bucket, ms. Default 10. */
  tickMs?: number;
  /** Buckets in the wheel (a timer further out waits for its round). Default 512. */
  slots?: number;
}

export class TimerWheel implements Clock {
  private readonly tickMs: number;
  private readonly buckets: WheelTimer[][];
  private readonly originMs: number;
  /** The last tick processed. */
  private tick: number;
  private count = 0;
  private hostTimer: TimerHandle | undefined;
  /** Callbacks that threw. */
  failures = 0;
  /** Timers fired since creation. */
  fired = 0;

  constructor(
    /** The host's clock: its one-shot timers drive the wheel. */
    private readonly base: Pick<Clock, 'monotonicMs' | 'wallMs' | 'setTimer' | 'clearTimer'>,
    options: TimerWheelOptions = {},
  ) {
    this.tickMs = options.tickMs ?? 10;
    const slots = options.slots ?? 512;
    if (!(this.tickMs > 0) || !Number.isInteger(slots) || slots < 1) {
      throw new RangeError('timer wheel: need tickMs > 0 and an integer slots >= 1');
    }
    this.buckets = Array.from({ length: slots }, () => []);
    this.originMs = base.monotonicMs();
    this.tick = this.tickOf(this.originMs);
  }

  monotonicMs(): number {
    return this.base.monotonicMs();
  }

  wallMs(): number {
    return this.base.wallMs();
  }

  /** Timers armed and not yet fired or cleared. */
  get pending(): number {
    return this.count;
  }

  setTimer(callback: () => void, delayMs: number): TimerHandle {
    const dueMs = this.base.monotonicMs() + Math.max(0, delayMs);
    // Never earlier than one tick past the one being processed, so a timer armed
    // inside a callback waits for the next tick rather than firing in this one.
    const dueTick = Math.max(this.tick + 1, Math.ceil((dueMs - this.originMs) / this.tickMs));
    const timer: WheelTimer = { callback, dueTick };
    this.buckets[dueTick % this.buckets.length]!.push(timer);
    this.count++;
    this.arm();
    return timer;
  }

  clearTimer(handle: TimerHandle | undefined): void {
    const timer = handle as WheelTimer | undefined;
    if (timer?.callback === undefined) return;
    timer.callback = undefined; // removed lazily when its bucket is swept
    this.count--;
    if (this.count === 0) this.disarm();
  }

  /** A reusable timer on the wheel: each arming is one wheel timer (O(1), like `setTimer`). */
  timer(callback: () => void): ReusableTimer {
    let handle: TimerHandle | undefined;
    const unschedule = (): void => {
      if (handle !== undefined) this.clearTimer(handle);
      handle = undefined;
    };
    return {
      schedule: (delayMs) => {
        unschedule();
        handle = this.setTimer(callback, delayMs);
      },
      unschedule,
    };
  }

  private tickOf(ms: number): number {
    return Math.floor((ms - this.originMs) / this.tickMs);
  }

  private arm(): void {
    if (this.hostTimer !== undefined || this.count === 0) return;
    const nextMs = this.originMs + (this.tick + 1) * this.tickMs;
    this.hostTimer = this.base.setTimer(this.onTick, Math.max(0, nextMs - this.base.monotonicMs()));
  }

  private disarm(): void {
    if (this.hostTimer !== undefined) this.base.clearTimer(this.hostTimer);
    this.hostTimer = undefined;
  }

  private readonly onTick = (): void => {
    this.hostTimer = undefined;
    const target = this.tickOf(this.base.monotonicMs());
    // A host that slept longer than a revolution sweeps every bucket once.
    const lap = target - this.tick >= this.buckets.length;
    const last = Math.min(target, this.tick + this.buckets.length);
    const due: WheelTimer[] = [];
    while (this.tick < last) {
      this.tick++;
      this.collect(this.buckets[this.tick % this.buckets.length]!, target, due);
    }
    this.tick = Math.max(this.tick, target);
    // Within one revolution bucket order is due order; after a longer sleep, sort (stable: arming order kept).
    if (lap) due.sort((a, b) => a.dueTick - b.dueTick);
    for (const timer of due) this.fire(timer);
    this.arm();
  };

  /** Moves the bucket's timers due by `upTo` to `due`; keeps later rounds and drops cleared ones. */
  private collect(bucket: WheelTimer[], upTo: number, due: WheelTimer[]): void {
    let kept = 0;
    for (let i = 0; i < bucket.length; i++) {
      const timer = bucket[i]!;
      if (timer.callback === undefined) continue;
      if (timer.dueTick <= upTo) due.push(timer);
      else bucket[kept++] = timer;
    }
    bucket.length = kept;
  }

  private fire(timer: WheelTimer): void {
    const callback = timer.callback;
    if (callback === undefined) return; // cleared by an earlier callback of this tick
    timer.callback = undefined;
    this.count--;
    this.fired++;
    try {
      callback();
    } catch {
      this.failures++;
    }
  }
}
