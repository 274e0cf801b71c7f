/**
 * The reusable timer of the Clock port (`Clock.timer`, the scheduler's one
 * wake-up timer) and `clearTimer` (undefined, cleared and fired handles ignored), one contract run against every Clock on Node: the Node
 * target's (on sinon's fake `setTimeout`, nothing sleeps), the tests' FakeClock
 * and the fleet's TimerWheel. The board's is tested on XS with the SDK's timer
 * rules (test/xs/firmware-clock.mjs).
 */
import { strict as assert } from 'node:assert';
import sinon from 'sinon';
import { TimerWheel } from '../../host-sim/fleet/timer-wheel.js';
import type { Clock } from '../../src/ports.js';
import { NodeClock } from '../../targets/node/clock.js';
import { FakeClock } from '../fakes/fake-clock.js';

interface Subject {
  clock: Clock;
  advance(ms: number): void;
  done(): void;
}

const subjects: Array<[string, () => Subject]> = [
  [
    'NodeClock',
    () => {
      const fake = sinon.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
      return { clock: new NodeClock(), advance: (ms) => fake.tick(ms), done: () => fake.restore() };
    },
  ],
  [
    'FakeClock',
    () => {
      const clock = new FakeClock();
      return { clock, advance: (ms) => clock.advance(ms), done: () => undefined };
    },
  ],
  [
    'TimerWheel (1 ms ticks)',
    () => {
      const base = new FakeClock();
      return { clock: new TimerWheel(base, { tickMs: 1 }), advance: (ms) => base.advance(ms), done: () => undefined };
    },
  ],
];

for (const [name, make] of subjects) {
  describe(`Clock.timer contract: ${name}`, () => {
    let s: Subject;
    beforeEach(() => (s = make()));
    afterEach(() => s.done());

    it('is made disarmed and fires once per arming, at its delay', () => {
      let fired = 0;
      const t = s.clock.timer(() => fired++);
      s.advance(1_000);
      assert.equal(fired, 0, 'made disarmed');
      t.schedule(100);
      s.advance(99);
      assert.equal(fired, 0, 'not early');
      s.advance(1);
      assert.equal(fired, 1);
      s.advance(1_000);
      assert.equal(fired, 1, 'once per arming');
    });

    it('an arming replaces the earlier one; unschedule disarms until armed again', () => {
      let fired = 0;
      const t = s.clock.timer(() => fired++);
      t.schedule(100);
      t.schedule(300);
      s.advance(299);
      assert.equal(fired, 0, 'the first arming was replaced');
      s.advance(1);
      assert.equal(fired, 1);
      t.schedule(50);
      t.unschedule();
      s.advance(500);
      assert.equal(fired, 1, 'disarmed');
      t.schedule(10);
      s.advance(10);
      assert.equal(fired, 2, 'armed again after unschedule');
    });

    it('clearTimer ignores undefined (no timer), a cleared handle and a fired one', () => {
      let fired = 0;
      s.clock.clearTimer(undefined);
      const cleared = s.clock.setTimer(() => fired++, 10);
      s.clock.clearTimer(cleared);
      s.clock.clearTimer(cleared);
      const done = s.clock.setTimer(() => fired++, 20);
      s.advance(30);
      s.clock.clearTimer(done);
      s.clock.clearTimer(undefined);
      assert.equal(fired, 1, 'only the timer that was not cleared fired');
      const later = s.clock.setTimer(() => fired++, 10);
      s.advance(10);
      assert.equal(fired, 2, 'the clock still fires after the clears');
      s.clock.clearTimer(later);
    });

    it('is re-armed from its own callback (the scheduler re-arms on every wake-up)', () => {
      const at: number[] = [];
      let elapsed = 0;
      const t = s.clock.timer(() => {
        at.push(elapsed);
        if (at.length < 4) t.schedule(25 * at.length);
      });
      t.schedule(10);
      while (elapsed < 400) {
        elapsed++;
        s.advance(1);
      }
      // At 10 ms, then 25, 50 and 75 ms after each firing, then no more.
      assert.deepEqual(at, [10, 35, 85, 160]);
    });
  });
}
