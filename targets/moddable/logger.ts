/**
 * The Logger port on Moddable: one `trace` line per record (the serial console
 * on a board, xsbug or the terminal in the simulator):
 * `<level> <message> key=value ...`. Never throws.
 */
import type { LogFields, Logger, LogLevel } from '../../src/ports.js';

const LEVELS: readonly LogLevel[] = ['debug', 'info', 'warn', 'error'];

export class TraceLogger implements Logger {
  readonly #minRank: number;

  constructor(minLevel: LogLevel) {
    this.#minRank = LEVELS.indexOf(minLevel);
  }

  log(level: LogLevel, message: string, fields?: LogFields): void {
    if (LEVELS.indexOf(level) < this.#minRank) return;
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
