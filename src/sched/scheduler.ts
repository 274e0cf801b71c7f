/**
 * Runs periodic tasks on the injected Clock, each at its own interval, without
 * drift: every task has a deadline that advances by whole intervals from its
 * start, so a late timer never shifts later scans, and scans missed while the
 * host was busy are skipped (counted), not bunched. One timer is armed for the
 * earliest deadline; a wake-up allocates nothing beyond the host's timer.
 */
import type { Clock, TimerHandle } from '../ports.js';

/** Something scanned periodically. `nowMs` is the monotonic time of the wake-up. */
export interface ScanTask {
  scan(nowMs: number): void;
}

/** A registered task; pass it back to `remove`. */
export interface ScheduledTask {
  readonly task: ScanTask;
  readonly intervalMs: number;
  dueMs: number;
}

export class Scheduler {
  private readonly entries: ScheduledTask[] = [];
  private timer: TimerHandle | undefined;
  private timerDueMs = Infinity;
  private running = false;
  /** Scans skipped because the host woke up more than one interval late. */
  missedScans = 0;
  /** Scans that threw (tasks are expected to handle their own errors). */
  failedScans = 0;

  constructor(private readonly clock: Clock) {}

  /** Adds a task whose first scan is `firstDelayMs` from now (default: at once). */
  add(task: ScanTask, intervalMs: number, firstDelayMs = 0): ScheduledTask {
    if (!(intervalMs > 0)) throw new RangeError(`scheduler: interval must be > 0, got ${intervalMs}`);
    const entry: ScheduledTask = { task, intervalMs, dueMs: this.clock.monotonicMs() + firstDelayMs };
    this.entries.push(entry);
    if (this.running) this.arm();
    return entry;
  }

  remove(entry: ScheduledTask): void {
    const i = this.entries.indexOf(entry);
    if (i >= 0) this.entries.splice(i, 1);
    if (this.running) this.arm();
  }

  /** Removes every task. */
  clear(): void {
    this.entries.length = 0;
    this.disarm();
  }

  get size(): number {
    return this.entries.length;
  }

  start(): void {
    this.running = true;
    this.arm();
  }

  stop(): void {
    this.running = false;
    this.disarm();
  }

  private disarm(): void {
    if (this.timer !== undefined) this.clock.clearTimer(this.timer);
    this.timer = undefined;
    this.timerDueMs = Infinity;
  }

  private arm(): void {
    let earliest = Infinity;
    for (let i = 0; i < this.entries.length; i++) {
      const due = this.entries[i]!.dueMs;
      if (due < earliest) earliest = due;
    }
    if (earliest === this.timerDueMs && this.timer !== undefined) return;
    this.disarm();
    if (earliest === Infinity) return;
    this.timerDueMs = earliest;
    this.timer = this.clock.setTimer(this.wake, Math.max(0, earliest - this.clock.monotonicMs()));
  }

  /** Bound once: the timer callback must not allocate a closure per wake-up. */
  private readonly wake = (): void => {
    this.timer = undefined;
    this.timerDueMs = Infinity;
    if (!this.running) return;
    const now = this.clock.monotonicMs();
    // Iterate over a stable length: a task may add or remove tasks (config reload).
    const count = this.entries.length;
    for (let i = 0; i < count && i < this.entries.length; i++) {
      const entry = this.entries[i]!;
      if (entry.dueMs > now) continue;
      entry.dueMs += entry.intervalMs;
      if (entry.dueMs <= now) {
        const behind = Math.floor((now - entry.dueMs) / entry.intervalMs) + 1;
        this.missedScans += behind;
        entry.dueMs += behind * entry.intervalMs;
      }
      try {
        entry.task.scan(now);
      } catch {
        this.failedScans++; // a task's bug must not stop the other channels
      }
    }
    if (this.running) this.arm();
  };
}
