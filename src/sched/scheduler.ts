/**
 * Runs periodic tasks on the injected Clock, each at its own interval, without
 * drift: every task has a deadline that advances by whole intervals from its
 * start, so a late timer never shifts later scans, and scans missed while the
 * host was busy are skipped (counted), not bunched. One timer is armed for the
 * earliest deadline; a wake-up allocates nothing beyond the host's timer.
 * A task carries its own period and deadline (no wrapper object per task: the
 * heap per channel on XS).
 */
import type { Clock, TimerHandle } from '../ports.js';

/**
 * Something scanned periodically. `nowMs` is the monotonic time of the wake-up.
 * `intervalMs` and `dueMs` belong to the scheduler: `add` sets them, each wake-up advances `dueMs`.
 */
export interface ScanTask {
  scan(nowMs: number): void;
  intervalMs: number;
  dueMs: number;
}

export class Scheduler {
  private readonly tasks: ScanTask[] = [];
  private timer: TimerHandle | undefined;
  private timerDueMs = Infinity;
  private running = false;
  /** Scans skipped because the host woke up more than one interval late. */
  missedScans = 0;
  /** Scans that threw (tasks are expected to handle their own errors). */
  failedScans = 0;

  constructor(private readonly clock: Clock) {}

  /** Adds a task whose first scan is `firstDelayMs` from now (default: at once); returns it. */
  add<T extends ScanTask>(task: T, intervalMs: number, firstDelayMs = 0): T {
    if (!(intervalMs > 0)) throw new RangeError(`scheduler: interval must be > 0, got ${intervalMs}`);
    task.intervalMs = intervalMs;
    task.dueMs = this.clock.monotonicMs() + firstDelayMs;
    this.tasks.push(task);
    if (this.running) this.arm();
    return task;
  }

  remove(task: ScanTask): void {
    const i = this.tasks.indexOf(task);
    if (i >= 0) this.tasks.splice(i, 1);
    if (this.running) this.arm();
  }

  /** Removes every task. */
  clear(): void {
    this.tasks.length = 0;
    this.disarm();
  }

  get size(): number {
    return this.tasks.length;
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
    for (let i = 0; i < this.tasks.length; i++) {
      const due = this.tasks[i]!.dueMs;
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
    const count = this.tasks.length;
    for (let i = 0; i < count && i < this.tasks.length; i++) {
      const task = this.tasks[i]!;
      if (task.dueMs > now) continue;
      task.dueMs += task.intervalMs;
      if (task.dueMs <= now) {
        const behind = Math.floor((now - task.dueMs) / task.intervalMs) + 1;
        this.missedScans += behind;
        task.dueMs += behind * task.intervalMs;
      }
      try {
        task.scan(now);
      } catch {
        this.failedScans++; // a task's bug must not stop the other channels
      }
    }
    if (this.running) this.arm();
  };
}
