/**
 * Per-thread scheduler figures from Linux (/proc/thread-self/schedstat): the
 * time the calling thread ran on a CPU and the time it waited for one while
 * runnable. They split a latency measured on a shared machine into the work
 * done and the wait for a core. Linux brings the figures up to date at
 * scheduler ticks and switches only, so read them around a block of work (many
 * requests, a round), never around one short call. Undefined where the file
 * does not exist.
 */
import { readFileSync } from 'node:fs';

export interface Sched {
  /** Nanoseconds on a CPU. */
  cpuNs: number;
  /** Nanoseconds runnable but waiting for a CPU. */
  waitNs: number;
}

export function threadSched(): Sched | undefined {
  let text: string;
  try {
    text = readFileSync('/proc/thread-self/schedstat', 'utf8');
  } catch {
    return undefined;
  }
  const [cpu, wait] = text.trim().split(/\s+/).map(Number);
  return cpu === undefined || wait === undefined || !(cpu >= 0 && wait >= 0) ? undefined : { cpuNs: cpu, waitNs: wait };
}

/** `after - before`, in milliseconds per `count` (undefined when either is). */
export function perItemMs(
  before: Sched | undefined,
  after: Sched | undefined,
  count: number,
): { cpuMs: number; waitMs: number } | undefined {
  if (before === undefined || after === undefined || count === 0) return undefined;
  const ms = (ns: number): number => Number((ns / 1e6 / count).toFixed(4));
  return { cpuMs: ms(after.cpuNs - before.cpuNs), waitMs: ms(after.waitNs - before.waitNs) };
}
