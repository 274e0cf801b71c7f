/**
 * What held a thread while the fair-share case ran (bench/service/flood.ts):
 * its event loop's delay (`perf_hooks.monitorEventLoopDelay`, 1 ms
 * resolution: how late a timer of this thread fires, the wait a request
 * arriving at that moment would see) and its garbage collections (the `gc`
 * performance entries: how many, the longest, their total), and where Linux
 * tells, its CPU time and its wait for a core (sched.ts). Started and
 * stopped around the flood, in the thread measured: the service's worker
 * answers `probe-start` / `probe-stop` with these figures.
 */
import { monitorEventLoopDelay, PerformanceObserver, type IntervalHistogram } from 'node:perf_hooks';
import { threadSched, type Sched } from './sched.js';

export interface ThreadFigures {
  /** Event-loop delay, ms: median, 99th percentile, largest. */
  loopP50Ms: number;
  loopP99Ms: number;
  loopMaxMs: number;
  /** Garbage collections while probed: count, the longest pause, their sum (ms). */
  gcCount: number;
  gcMaxMs: number;
  gcTotalMs: number;
  /** Where Linux tells (sched.ts): ms this thread ran on a CPU, and ms it was runnable but waited for one. */
  cpuMs: number | undefined;
  coreWaitMs: number | undefined;
}

const ms = (ns: number): number => Number((ns / 1e6).toFixed(2));

export class ThreadProbe {
  private histogram: IntervalHistogram | undefined;
  private observer: PerformanceObserver | undefined;
  private gc = { count: 0, maxMs: 0, totalMs: 0 };
  private sched: Sched | undefined;

  start(): void {
    this.stop();
    this.gc = { count: 0, maxMs: 0, totalMs: 0 };
    this.sched = threadSched();
    this.histogram = monitorEventLoopDelay({ resolution: 1 });
    this.histogram.enable();
    this.observer = new PerformanceObserver((list) => {
      for (const e of list.getEntries()) {
        this.gc.count++;
        this.gc.maxMs = Math.max(this.gc.maxMs, e.duration);
        this.gc.totalMs += e.duration;
      }
    });
    this.observer.observe({ entryTypes: ['gc'] });
  }

  /** Stops probing; the figures since `start` (zeros if it never started). */
  stop(): ThreadFigures {
    const h = this.histogram;
    const before = this.sched;
    const after = threadSched();
    h?.disable();
    this.observer?.disconnect();
    this.histogram = undefined;
    this.observer = undefined;
    return {
      loopP50Ms: h === undefined ? 0 : ms(h.percentile(50)),
      loopP99Ms: h === undefined ? 0 : ms(h.percentile(99)),
      loopMaxMs: h === undefined ? 0 : ms(h.max),
      gcCount: this.gc.count,
      gcMaxMs: Number(this.gc.maxMs.toFixed(2)),
      gcTotalMs: Number(this.gc.totalMs.toFixed(2)),
      cpuMs: before === undefined || after === undefined ? undefined : ms(after.cpuNs - before.cpuNs),
      coreWaitMs: before === undefined || after === undefined ? undefined : ms(after.waitNs - before.waitNs),
    };
  }
}
