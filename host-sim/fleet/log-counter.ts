/**
 * The fleet's logger: a thousand agents log the same lines (`hub: connect
 * failed` a thousand times in an outage), so lines are counted by level and
 * message, not printed. Fields are never kept: they may carry device keys and
 * reasons, and nothing a device logs reaches the terminal (tokens included).
 */
import type { LogFields, Logger, LogLevel } from '../../src/ports.js';

export class CountingLogger implements Logger {
  /** `level message` -> lines. */
  readonly counts = new Map<string, number>();

  log(level: LogLevel, message: string, _fields?: LogFields): void {
    if (level === 'debug') return;
    const kind = `${level} ${message}`;
    this.counts.set(kind, (this.counts.get(kind) ?? 0) + 1);
  }

  /** Count of lines at `level`. */
  total(level: LogLevel): number {
    let n = 0;
    for (const [kind, count] of this.counts) if (kind.startsWith(`${level} `)) n += count;
    return n;
  }

  /** The warn and error kinds, most frequent first. */
  problems(): Record<string, number> {
    const entries = [...this.counts].filter(([kind]) => !kind.startsWith('info ')).sort((a, b) => b[1] - a[1]);
    return Object.fromEntries(entries);
  }
}
