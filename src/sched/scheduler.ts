/**
 * Runs periodic tasks on the injected Clock, each at its own interval, without
 * drift: every task has a deadline that advances by whole intervals from its
 * start, so a late timer never shifts later scans, and scans missed while the
 * host was busy are skipped, not bunched. One timer is armed for the
 * earliest deadline, one reusable host timer re-armed on every wake-up
 * (`Clock.timer`): a steady wake-up allocates nothing, on a board neither.
 * A task carries its own period and deadline (no wrapper object per task: the
 * heap per channel on XS). It runs while it has tasks: nothing to start; a host's agent stops
 * sampling by taking its channels' tasks off (agent.ts).
 */
import type { Clock, ReusableTimer } from '../ports.js';

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
  readonly #tasks: ScanTask[] = [];
  readonly #clock: Clock;
  readonly #timer: ReusableTimer;
  /** The deadline the timer is armed for; Infinity while disarmed. */
  #timerDueMs = Infinity;

  constructor(clock: Clock) {
    this.#clock = clock;
    // A bound method: no function's byte code is copied at run time (an arrow field's would be, per scheduler).
    this.#timer = clock.timer(this.#wake.bind(this));
  }

  /** Adds a task whose first scan is due now. */
  add(task: ScanTask, intervalMs: number): void {
    if (!(intervalMs > 0)) throw new RangeError(`scheduler: interval ${intervalMs}`);
    task.intervalMs = intervalMs;
    task.dueMs = this.#clock.monotonicMs();
    this.#tasks.push(task);
    this.#arm();
  }

  remove(task: ScanTask): void {
    const i = this.#tasks.indexOf(task);
    if (i >= 0) this.#tasks.splice(i, 1);
    this.#arm();
  }

  /** (Re)arms the one timer for the earliest deadline; disarms it when no task is left. */
  #arm(): void {
    let earliest = Infinity;
    const tasks = this.#tasks;
    // An indexed loop: for-of would allocate an iterator per wake-up.
    for (let i = 0; i < tasks.length; i++) if (tasks[i]!.dueMs < earliest) earliest = tasks[i]!.dueMs;
    if (earliest === this.#timerDueMs) return;
    this.#timerDueMs = earliest;
    if (earliest === Infinity) this.#timer.unschedule();
    else this.#timer.schedule(Math.max(0, earliest - this.#clock.monotonicMs()));
  }

  /** Bound once (the constructor): the timer callback must not allocate a closure per wake-up. */
  #wake(): void {
    this.#timerDueMs = Infinity;
    const now = this.#clock.monotonicMs();
    // Iterate over a stable length: a task may add or remove tasks (config reload).
    const tasks = this.#tasks;
    const count = tasks.length;
    for (let i = 0; i < count && i < tasks.length; i++) {
      const task = tasks[i]!;
      if (task.dueMs > now) continue;
      // The next deadline on the task's grid after now: deadlines missed meanwhile are skipped.
      task.dueMs = now - ((now - task.dueMs) % task.intervalMs) + task.intervalMs;
      try {
        task.scan(now);
      } catch {
        // a task's bug must not stop the other channels (tasks handle their own errors)
      }
    }
    this.#arm();
  }
}
