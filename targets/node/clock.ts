/**
 * The Clock port on Node: monotonic time from `performance.now()`, wall time
 * from `Date.now()`, timers from `setTimeout`.
 */
import { performance } from 'node:perf_hooks';
import type { Clock, TimerHandle } from '../../src/ports.js';

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

  clearTimer(handle: TimerHandle): void {
    clearTimeout((handle as NodeTimer).timeout);
  }
}
