/**
 * One measured fleet run, shared by the CLI, the benchmark and the tests:
 * the process's memory before any device exists, then the run, with CPU time
 * and peak RSS taken over the sampling span (before the drain and read-back),
 * and the summary.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { memoryUsage } from 'node:process';
import { Fleet, type FleetOptions } from './fleet.js';
import { summarize, type ProcessUsage } from './summary.js';

export type RunOptions = FleetOptions;

export async function runFleet(options: RunOptions): Promise<ReturnType<typeof summarize> & { fleet: Fleet }> {
  globalThis.gc?.();
  const baseline = memoryUsage();
  const cpu0 = process.cpuUsage();
  const wall0 = performance.now();
  let peakRss = baseline.rss;
  // How late the event loop ran: a starved process (a busy host) skips scans.
  const loop = monitorEventLoopDelay({ resolution: 20 });
  loop.enable();
  const usage: ProcessUsage = {
    cpuS: 0,
    wallS: 0,
    peakRssBytes: 0,
    baselineRssBytes: baseline.rss,
    runningRssBytes: 0,
    heapUsedBytes: 0,
    baselineHeapBytes: baseline.heapUsed,
    loopDelayMs: { p50: 0, p99: 0, max: 0 },
  };
  /** CPU and wall time since the start, and the memory in use now. */
  const measureUsage = (): void => {
    const cpu = process.cpuUsage(cpu0);
    usage.cpuS = (cpu.user + cpu.system) / 1e6;
    usage.wallS = (performance.now() - wall0) / 1000;
    const m = memoryUsage();
    usage.runningRssBytes = m.rss;
    usage.heapUsedBytes = m.heapUsed;
  };
  const fleet: Fleet = new Fleet({
    ...options,
    onTick: (f, second) => {
      const rss = memoryUsage.rss();
      if (rss > peakRss) peakRss = rss;
      if (second === Math.floor(options.durationS)) {
        // The end of sampling: every device running, nothing drained yet.
        measureUsage();
        loop.disable();
      }
      options.onTick?.(f, second);
    },
  });
  const result = await fleet.run();
  loop.disable();
  usage.loopDelayMs = {
    p50: Math.round(loop.percentile(50) / 1e6),
    p99: Math.round(loop.percentile(99) / 1e6),
    max: Math.round(loop.max / 1e6),
  };
  usage.peakRssBytes = peakRss;
  if (usage.wallS === 0) measureUsage();
  return { ...summarize(fleet, result, usage, result.sampledS), fleet };
}
