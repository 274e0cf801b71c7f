/**
 * The Logger port on Moddable: one `trace` line per record (the serial console
 * on a board, xsbug or the terminal in the simulator). Never throws.
 */
import type { LogFields, Logger, LogLevel } from '../../src/ports.js';

const RANK: Record<LogLevel, number> = { debug: 0, info: 1, warn: 2, error: 3 };

export class TraceLogger implements Logger {
  constructor(private readonly minLevel: LogLevel = 'info') {}

  log(level: LogLevel, message: string, fields?: LogFields): void {
    if (RANK[level] < RANK[this.minLevel]) return;
    try {
      let line = `${level} ${message}`;
      if (fields !== undefined) {
        for (const key in fields) {
          const value = fields[key];
          if (value !== undefined) line += ` ${key}=${typeof value === 'string' ? JSON.stringify(value) : value}`;
        }
      }
      trace(line + '\n');
    } catch {
      // A logger must never break its caller.
    }
  }
}
