/**
 * The Clock port on Node: monotonic time from `performance.now()`, wall time
 * from `Date.now()`, timers from `setTimeout` (a reusable timer is a new
 * `setTimeout` per arming: Node's heap does not need the board's economy).
 */
import { performance } from 'node:perf_hooks';
import type { Clock, ReusableTimer, TimerHandle } from '../../src/ports.js';

interface NodeTimer extends TimerHandle {
  timeout: NodeJS.Timeout;
}

export class NodeClock implements Clock {
  monotonicMs(): number {
    return performance.now();
  }

  wallMs(): number {
    return Date.now();
  }

  setTimer(callback: () => void, delayMs: number): TimerHandle {
    const timer: NodeTimer = { timeout: setTimeout(callback, Math.max(0, delayMs)) };
    return timer;
  }

  clearTimer(handle: TimerHandle | undefined): void {
    clearTimeout((handle as NodeTimer | undefined)?.timeout);
  }

  timer(callback: () => void): ReusableTimer {
    let timeout: NodeJS.Timeout | undefined;
    const unschedule = (): void => {
      if (timeout !== undefined) clearTimeout(timeout);
      timeout = undefined;
    };
    return {
      schedule(delayMs) {
        unschedule();
        timeout = setTimeout(
          () => {
            timeout = undefined;
            callback();
          },
          Math.max(0, delayMs),
        );
      },
      unschedule,
    };
  }
}
