/**
 * A fake Clock for tests: time moves only when a test advances it, timers fire
 * in due order, and `advanceAsync` lets promise chains settle between timers.
 * Tests never sleep (STYLE.md, practice 4).
 *
 * Its timers live in one array searched by index, and a reusable timer
 * (`timer`) stays in it disarmed (due Infinity) between armings, so finding,
 * firing and re-arming one allocates nothing: bench:xs measures the core's
 * scan tick through this clock, like a board's `Timer.schedule`.
 */
import type { Clock, ReusableTimer, TimerHandle } from '../../src/ports.js';

interface FakeTimer extends TimerHandle {
  id: number;
  /** Infinity while disarmed (a reusable timer between armings). */
  due: number;
  callback: () => void;
  /** Stays after firing (a reusable timer), or removed (a one-shot). */
  reusable: boolean;
}

export class FakeClock implements Clock {
  private now: number;
  private wall: number;
  private nextId = 1;
  private readonly timers: FakeTimer[] = [];

  /** @param wallMs the wall clock at monotonic 0 (default 2026-01-01T00:00:00Z). */
  constructor(wallMs = Date.UTC(2026, 0, 1), monotonicStartMs = 0) {
    this.now = monotonicStartMs;
    this.wall = wallMs - monotonicStartMs;
  }

  monotonicMs(): number {
    return this.now;
  }

  wallMs(): number {
    return this.wall + this.now;
  }

  /** Sets the host wall clock (e.g. to 0 to model a board before SNTP). */
  setWallMs(unixMs: number): void {
    this.wall = unixMs - this.now;
  }

  setTimer(callback: () => void, delayMs: number): TimerHandle {
    const timer: FakeTimer = { id: this.nextId++, due: this.now + Math.max(0, delayMs), callback, reusable: false };
    this.timers.push(timer);
    return timer;
  }

  clearTimer(handle: TimerHandle | undefined): void {
    if (handle !== undefined) this.remove(handle as FakeTimer);
  }

  timer(callback: () => void): ReusableTimer {
    const timer: FakeTimer = { id: 0, due: Infinity, callback, reusable: true };
    this.timers.push(timer);
    return {
      schedule: (delayMs) => {
        // A new id orders it after timers armed before it for the same time, as setTimer does.
        timer.id = this.nextId++;
        timer.due = this.now + Math.max(0, delayMs);
      },
      unschedule: () => {
        timer.due = Infinity;
      },
    };
  }

  /** Number of timers armed. */
  get pending(): number {
    let count = 0;
    for (let i = 0; i < this.timers.length; i++) if (this.timers[i]!.due !== Infinity) count++;
    return count;
  }

  private remove(timer: FakeTimer): void {
    const i = this.timers.indexOf(timer);
    if (i < 0) return;
    // Order in the array does not matter (nextDue orders by due time and id): swap out, no new array.
    this.timers[i] = this.timers[this.timers.length - 1]!;
    this.timers.pop();
  }

  private nextDue(limit: number): FakeTimer | undefined {
    let best: FakeTimer | undefined;
    for (let i = 0; i < this.timers.length; i++) {
      const t = this.timers[i]!;
      if (t.due <= limit && (best === undefined || t.due < best.due || (t.due === best.due && t.id < best.id)))
        best = t;
    }
    return best;
  }

  /** Disarms or removes `t` and calls it at its due time. */
  private fire(t: FakeTimer): void {
    this.now = t.due;
    if (t.reusable) t.due = Infinity;
    else this.remove(t);
    t.callback();
  }

  /** Advances time synchronously, firing due timers in order. */
  advance(ms: number): void {
    const end = this.now + ms;
    for (let t = this.nextDue(end); t !== undefined; t = this.nextDue(end)) this.fire(t);
    this.now = end;
  }

  /** Advances time, letting promise chains settle before and after each timer. */
  async advanceAsync(ms: number): Promise<void> {
    const end = this.now + ms;
    await settle();
    for (let t = this.nextDue(end); t !== undefined; t = this.nextDue(end)) {
      this.fire(t);
      await settle();
    }
    this.now = end;
    await settle();
  }
}

/** Lets pending promise reactions run (portable: no setImmediate on XS). */
export async function settle(rounds = 20): Promise<void> {
  for (let i = 0; i < rounds; i++) await Promise.resolve();
}
