/** The scheduler: each task at its interval, deadline-based (no drift), missed scans skipped. */
import { Scheduler, type ScanTask } from '../../../src/sched/scheduler.js';
import { FakeClock } from '../../fakes/fake-clock.js';
import { assert } from '../../support/assert.js';

class Recorder implements ScanTask {
  readonly at: number[] = [];
  intervalMs = 0;
  dueMs = 0;
  constructor(
    private readonly clock: FakeClock,
    private readonly costMs = 0,
  ) {}
  scan(nowMs: number): void {
    this.at.push(nowMs);
    if (this.costMs > 0) this.clock.advance(this.costMs); // a slow scan: time passes inside it
  }
}

describe('scheduler', () => {
  it('runs each task at its own interval from its start', () => {
    const clock = new FakeClock();
    const s = new Scheduler(clock);
    const a = new Recorder(clock);
    const b = new Recorder(clock);
    s.add(a, 100);
    s.add(b, 250);
    clock.advance(1000);
    assert.deepEqual(a.at, [0, 100, 200, 300, 400, 500, 600, 700, 800, 900, 1000]);
    assert.deepEqual(b.at, [0, 250, 500, 750, 1000]);
  });

  it('does not drift when scans take time', () => {
    const clock = new FakeClock();
    const s = new Scheduler(clock);
    const slow = new Recorder(clock, 30);
    s.add(slow, 100);
    clock.advance(1000);
    assert.deepEqual(slow.at.slice(0, 5), [0, 100, 200, 300, 400]);
  });

  it('skips scans missed while the host was busy, keeping the phase', () => {
    const clock = new FakeClock();
    const s = new Scheduler(clock);
    const stuck = new Recorder(clock, 350);
    s.add(stuck, 100);
    clock.advance(1000);
    // The scan at 0 runs until 350: the overdue scan (due 100) runs once, late, at 350; those due
    // 200 and 300 are skipped, and the deadlines stay on the 100 ms grid (next due 400).
    assert.deepEqual(stuck.at.slice(0, 3), [0, 350, 700]);
  });

  it('removes a task, runs only while it has tasks, and starts a task added again afresh', () => {
    const clock = new FakeClock();
    const s = new Scheduler(clock);
    const a = new Recorder(clock);
    const b = new Recorder(clock);
    s.add(a, 100);
    s.add(b, 300);
    clock.advance(100);
    s.remove(a);
    clock.advance(500);
    assert.deepEqual(a.at, [0, 100]);
    assert.deepEqual(b.at, [0, 300, 600], 'the other task keeps its own deadlines');
    s.remove(b);
    assert.equal(clock.pending, 0, 'no task left: the timer is disarmed');
    clock.advance(500);
    assert.deepEqual(b.at, [0, 300, 600]);
    s.add(a, 100);
    clock.advance(150);
    assert.deepEqual(a.at, [0, 100, 1100, 1200], 'added again: its first scan at once, then on its new grid');
  });

  it('keeps one reusable host timer, re-armed on every wake-up, never a new one (0 garbage per tick on a board)', () => {
    const clock = new FakeClock();
    const made = { timers: 0, oneShots: 0, armings: 0 };
    const counting = {
      monotonicMs: () => clock.monotonicMs(),
      wallMs: () => clock.wallMs(),
      setTimer: (callback: () => void, delayMs: number) => (made.oneShots++, clock.setTimer(callback, delayMs)),
      clearTimer: (handle: Parameters<FakeClock['clearTimer']>[0]) => clock.clearTimer(handle),
      timer: (callback: () => void) => {
        made.timers++;
        const t = clock.timer(callback);
        return { schedule: (ms: number) => (made.armings++, t.schedule(ms)), unschedule: () => t.unschedule() };
      },
    };
    const s = new Scheduler(counting);
    const a = new Recorder(clock);
    const b = new Recorder(clock);
    s.add(a, 100);
    s.add(b, 300);
    clock.advance(1000);
    assert.equal(a.at.length, 11);
    assert.deepEqual(b.at, [0, 300, 600, 900]);
    // One arming at the first add, one per wake-up (0, 100, ..., 1000 ms).
    assert.deepEqual(made, { timers: 1, oneShots: 0, armings: 12 }, JSON.stringify(made));
    s.remove(a);
    s.remove(b);
    assert.equal(clock.pending, 0, 'the last removal disarms it');
  });

  it('refuses a non-positive interval', () => {
    const s = new Scheduler(new FakeClock());
    let threw = false;
    try {
      s.add({ scan: () => undefined, intervalMs: 0, dueMs: 0 }, 0);
    } catch {
      threw = true;
    }
    assert.ok(threw);
  });
});
