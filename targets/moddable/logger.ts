/**
 * The Logger port on Moddable: one `trace` line per record (the serial console
 * on a board, xsbug or the terminal in the simulator):
 * `<level> <message> key=value ...`. Never throws.
 */
import type { Logger, LogLevel } from '../../src/ports.js';

const LEVELS: readonly LogLevel[] = ['debug', 'info', 'warn', 'error'];

/** Traces the records at `minLevel` and above (a class: its method is not made, nor copied, at run time; clock.ts). */
export class TraceLogger implements Logger {
  declare readonly rank: number;

  constructor(minLevel: LogLevel) {
    this.rank = LEVELS.indexOf(minLevel);
  }

  log(level: LogLevel, message: string, fields?: Readonly<Record<string, unknown>>): void {
    if (LEVELS.indexOf(level) < this.rank) return;
    try {
      let line = `${level} ${message}`;
      for (const [key, value] of Object.entries(fields ?? {}))
        if (value !== undefined) line += ` ${key}=${typeof value === 'string' ? JSON.stringify(value) : value}`;
      trace(line + '\n');
    } catch {
      // A logger must never break its caller.
    }
  }
}
