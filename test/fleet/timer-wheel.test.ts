/**
 * The fleet's timer wheel over a FakeClock: every timer fires once, never
 * early and at most one tick late, in due order across ticks; a cleared timer
 * never fires; the host sees one timer at most, and none when the wheel is
 * empty; a timer armed in a callback waits for a later tick.
 */
import fc from 'fast-check';
import { TimerWheel } from '../../host-sim/fleet/timer-wheel.js';
import { FakeClock } from '../fakes/fake-clock.js';
import { assert } from '../support/assert.js';

describe('fleet timer wheel', () => {
  it('fires each timer once, not early, within one tick, cleared ones never', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ delay: fc.integer({ min: 0, max: 20000 }), clear: fc.boolean() }), { maxLength: 200 }),
        fc.integer({ min: 1, max: 50 }),
        fc.integer({ min: 1, max: 64 }),
        fc.array(fc.integer({ min: 1, max: 3000 }), { minLength: 1, maxLength: 30 }),
        (timers, tickMs, slots, steps) => {
          const base = new FakeClock();
          const wheel = new TimerWheel(base, { tickMs, slots });
          const fired: { i: number; at: number }[] = [];
          const handles = timers.map((t, i) =>
            wheel.setTimer(() => fired.push({ i, at: base.monotonicMs() }), t.delay),
          );
          timers.forEach((t, i) => t.clear && wheel.clearTimer(handles[i]!));
          assert.ok(base.pending <= 1, 'one host timer at most');
          for (const step of steps) base.advance(step);
          base.advance(25000);
          const expected = timers.flatMap((t, i) => (t.clear ? [] : [i]));
          assert.deepEqual(
            fired.map((f) => f.i).sort((a, b) => a - b),
            expected,
            'each uncleared timer once',
          );
          for (const f of fired) {
            const due = timers[f.i]!.delay;
            assert.ok(f.at >= due, `timer ${f.i} due ${due} fired early at ${f.at}`);
            assert.ok(f.at <= due + tickMs, `timer ${f.i} due ${due} fired at ${f.at}, over a tick late`);
          }
          for (let k = 1; k < fired.length; k++) {
            // The tick a timer is due on: never the current one (0), so delay 0 means tick 1.
            const a = Math.max(1, Math.ceil(timers[fired[k - 1]!.i]!.delay / tickMs));
            const b = Math.max(1, Math.ceil(timers[fired[k]!.i]!.delay / tickMs));
            assert.ok(a <= b, 'due order across ticks');
          }
          assert.equal(wheel.pending, 0);
          assert.equal(base.pending, 0, 'no host timer once the wheel is empty');
        },
      ),
      { numRuns: 200 },
    );
  });

  it('a timer armed inside a callback, even with delay 0, fires on a later tick', () => {
    const base = new FakeClock();
    const wheel = new TimerWheel(base, { tickMs: 10 });
    const log: string[] = [];
    wheel.setTimer(() => {
      log.push(`a@${base.monotonicMs()}`);
      wheel.setTimer(() => log.push(`b@${base.monotonicMs()}`), 0);
    }, 10);
    base.advance(10);
    assert.deepEqual(log, ['a@10']);
    base.advance(10);
    assert.deepEqual(log, ['a@10', 'b@20']);
  });

  it('a throwing callback is counted and the other timers of the tick still fire', () => {
    const base = new FakeClock();
    const wheel = new TimerWheel(base, { tickMs: 5 });
    let ran = 0;
    wheel.setTimer(() => {
      throw new Error('bug');
    }, 5);
    wheel.setTimer(() => ran++, 5);
    base.advance(5);
    assert.equal(ran, 1);
    assert.equal(wheel.failures, 1);
    assert.equal(wheel.fired, 2);
  });

  it('a host that wakes several revolutions late fires everything due once, in order', () => {
    // A host clock whose one timer runs only when the test says so (a busy event loop).
    let now = 0;
    let pending: (() => void) | undefined;
    const late = {
      monotonicMs: () => now,
      wallMs: () => now,
      setTimer: (callback: () => void) => ((pending = callback), {}),
      clearTimer: () => (pending = undefined),
    };
    const run = (): void => {
      const callback = pending;
      pending = undefined;
      callback?.();
    };
    const wheel = new TimerWheel(late, { tickMs: 10, slots: 8 });
    const fired: number[] = [];
    for (const d of [5, 75, 81, 400, 1000]) wheel.setTimer(() => fired.push(d), d);
    now = 900;
    run();
    assert.deepEqual(fired, [5, 75, 81, 400]);
    assert.ok(pending !== undefined, 're-armed for the timer left');
    now = 1100;
    run();
    assert.deepEqual(fired, [5, 75, 81, 400, 1000]);
    assert.equal(pending, undefined, 'nothing armed once empty');
  });

  it('refuses nonsense settings', () => {
    assert.throws(() => new TimerWheel(new FakeClock(), { tickMs: 0 }));
    assert.throws(() => new TimerWheel(new FakeClock(), { slots: 0 }));
  });
});
