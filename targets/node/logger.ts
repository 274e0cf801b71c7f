/**
 * The Logger port on Node: one line per entry on standard error, `time level
 * message key=value ...`, filtered by level. An `errno` field is written with
 * its name (`errno="-110 ETIMEDOUT"`). Never throws.
 */
import { errnoName } from '../../src/errno.js';
import type { LogFields, Logger, LogLevel } from '../../src/ports.js';

const rank: Record<LogLevel, number> = { debug: 0, info: 1, warn: 2, error: 3 };

export class ConsoleLogger implements Logger {
  constructor(
    private readonly minLevel: LogLevel = 'info',
    private readonly write: (line: string) => void = (line) => process.stderr.write(line + '\n'),
  ) {}

  log(level: LogLevel, message: string, fields?: LogFields): void {
    if (rank[level] < rank[this.minLevel]) return;
    try {
      let line = `${new Date().toISOString()} ${level.padEnd(5)} ${message}`;
      if (fields !== undefined) {
        for (const [k, v] of Object.entries(fields)) {
          if (v === undefined) continue;
          line += ` ${k}=${formatValue(k === 'errno' && typeof v === 'number' ? `${v} ${errnoName(v)}` : v)}`;
        }
      }
      this.write(line);
    } catch {
      // a logger never throws into the agent
    }
  }
}

function formatValue(v: string | number | boolean): string {
  return typeof v === 'string' && /[\s"=]/.test(v) ? JSON.stringify(v) : String(v);
}

/**
 * The text of a crash report (uncaught exception, unhandled rejection, failed
 * start) for `e`, stack included, with every secret `redact` knows removed
 * (docs/tls.md: the token never reaches a crash report).
 */
export function crashReport(what: string, e: unknown, redact: (text: string) => string): string {
  let text: string;
  try {
    text = e instanceof Error ? (e.stack ?? `${e.name}: ${e.message}`) : String(e);
  } catch {
    text = 'unprintable value';
  }
  return redact(`agent: ${what}: ${text}`);
}
