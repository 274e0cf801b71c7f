/**
 * A fake Clock for tests: time moves only when a test advances it, timers fire
 * in due order, and `advanceAsync` lets promise chains settle between timers.
 * Tests never sleep (STYLE.md, practice 4).
 */
import type { Clock, TimerHandle } from '../../src/ports.js';

interface FakeTimer extends TimerHandle {
  id: number;
  due: number;
  callback: () => void;
}

export class FakeClock implements Clock {
  private now: number;
  private wall: number;
  private nextId = 1;
  private readonly timers = new Map<number, FakeTimer>();

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
    const timer: FakeTimer = { id: this.nextId++, due: this.now + Math.max(0, delayMs), callback };
    this.timers.set(timer.id, timer);
    return timer;
  }

  clearTimer(handle: TimerHandle): void {
    this.timers.delete((handle as FakeTimer).id);
  }

  /** Number of timers pending. */
  get pending(): number {
    return this.timers.size;
  }

  private nextDue(limit: number): FakeTimer | undefined {
    let best: FakeTimer | undefined;
    for (const t of this.timers.values()) {
      if (t.due <= limit && (best === undefined || t.due < best.due || (t.due === best.due && t.id < best.id)))
        best = t;
    }
    return best;
  }

  /** Advances time synchronously, firing due timers in order. */
  advance(ms: number): void {
    const end = this.now + ms;
    for (let t = this.nextDue(end); t !== undefined; t = this.nextDue(end)) {
      this.timers.delete(t.id);
      this.now = t.due;
      t.callback();
    }
    this.now = end;
  }

  /** Advances time, letting promise chains settle before and after each timer. */
  async advanceAsync(ms: number): Promise<void> {
    const end = this.now + ms;
    await settle();
    for (let t = this.nextDue(end); t !== undefined; t = this.nextDue(end)) {
      this.timers.delete(t.id);
      this.now = t.due;
      t.callback();
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
