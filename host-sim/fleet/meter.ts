/**
 * Small fixed-size meters for a fleet run: a latency histogram (log buckets,
 * four per octave, 1 ms .. ~18 min; a percentile is the upper edge of its
 * bucket, at most 19 % above the true value) and a per-second time series.
 * Both have a bound set at construction: a thousand devices each carry one.
 * And a logger that counts lines instead of printing them.
 */
import type { LogFields, Logger, LogLevel } from '../../src/ports.js';

const perOctave = 4;
const bucketCount = 20 * perOctave + 1;

/** Upper edge of bucket `i`, ms (bucket 0 holds everything under 1 ms). */
function upperMs(i: number): number {
  return i === 0 ? 1 : 2 ** (i / perOctave);
}

export interface LatencySummary {
  count: number;
  p50Ms: number;
  p95Ms: number;
  p99Ms: number;
  maxMs: number;
  meanMs: number;
}

export class LatencyHistogram {
  private readonly buckets = new Uint32Array(bucketCount);
  count = 0;
  sumMs = 0;
  maxMs = 0;

  add(ms: number): void {
    const v = Math.max(0, ms);
    const i = v < 1 ? 0 : Math.min(bucketCount - 1, Math.ceil(Math.log2(v) * perOctave));
    this.buckets[i]!++;
    this.count++;
    this.sumMs += v;
    if (v > this.maxMs) this.maxMs = v;
  }

  /** Adds every observation of `other`. */
  merge(other: LatencyHistogram): void {
    for (let i = 0; i < bucketCount; i++) this.buckets[i]! += other.buckets[i]!;
    this.count += other.count;
    this.sumMs += other.sumMs;
    if (other.maxMs > this.maxMs) this.maxMs = other.maxMs;
  }

  /** The value at quantile `q` (0..1): the upper edge of its bucket, capped at the maximum seen. */
  quantile(q: number): number {
    if (this.count === 0) return 0;
    const rank = Math.max(1, Math.ceil(q * this.count));
    let seen = 0;
    for (let i = 0; i < bucketCount; i++) {
      seen += this.buckets[i]!;
      if (seen >= rank) return Math.min(upperMs(i), this.maxMs);
    }
    return this.maxMs;
  }

  summary(): LatencySummary {
    const round = (v: number): number => Math.round(v * 10) / 10;
    return {
      count: this.count,
      p50Ms: round(this.quantile(0.5)),
      p95Ms: round(this.quantile(0.95)),
      p99Ms: round(this.quantile(0.99)),
      maxMs: round(this.maxMs),
      meanMs: this.count === 0 ? 0 : round(this.sumMs / this.count),
    };
  }
}

/** Counts per whole second since `originMs`, up to `maxSeconds` (later ones land in the last). */
export class SecondSeries {
  private readonly counts: Uint32Array;

  constructor(
    private readonly originMs: number,
    maxSeconds: number,
  ) {
    this.counts = new Uint32Array(Math.max(1, Math.ceil(maxSeconds)));
  }

  add(atMs: number, n = 1): void {
    const s = Math.floor((atMs - this.originMs) / 1000);
    if (s < 0) return;
    this.counts[Math.min(s, this.counts.length - 1)]! += n;
  }

  /** Count in second `s`. */
  at(s: number): number {
    return this.counts[s] ?? 0;
  }

  /** The counts of seconds [fromS, toS). */
  range(fromS: number, toS: number): number[] {
    return Array.from(this.counts.subarray(Math.max(0, fromS), Math.min(this.counts.length, toS)));
  }
}

/**
 * The fleet's logger: a thousand agents log the same lines (`hub: connect
 * failed` a thousand times in an outage), so lines are counted by level and
 * message, not printed. Fields are never kept: they may carry device keys and
 * reasons, and nothing a device logs reaches the terminal (tokens included).
 */
export class CountingLogger implements Logger {
  /** `level message` -> lines. */
  readonly counts = new Map<string, number>();

  log(level: LogLevel, message: string, _fields?: LogFields): void {
    if (level === 'debug') return;
    const kind = `${level} ${message}`;
    this.counts.set(kind, (this.counts.get(kind) ?? 0) + 1);
  }

  /** The warn and error kinds, most frequent first. */
  problems(): Record<string, number> {
    const entries = [...this.counts].filter(([kind]) => !kind.startsWith('info ')).sort((a, b) => b[1] - a[1]);
    return Object.fromEntries(entries);
  }
}
