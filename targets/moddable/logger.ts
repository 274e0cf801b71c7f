/**
 * The Logger port on Moddable: one `trace` line per record (the serial console
 * on a board, xsbug or the terminal in the simulator):
 * `<level> <message> key=value ...`. Never throws.
 */
import type { Logger, LogLevel } from '../../src/ports.js';

const LEVELS: readonly LogLevel[] = ['debug', 'info', 'warn', 'error'];

/** Traces the records at `minLevel` and above. */
export function traceLogger(minLevel: LogLevel): Logger {
  const minRank = LEVELS.indexOf(minLevel);
  return {
    log(level, message, fields) {
      if (LEVELS.indexOf(level) < minRank) return;
      try {
        let line = `${level} ${message}`;
        for (const [key, value] of Object.entries(fields ?? {}))
          if (value !== undefined) line += ` ${key}=${typeof value === 'string' ? JSON.stringify(value) : value}`;
        trace(line + '\n');
      } catch {
        // A logger must never break its caller.
      }
    },
  };
}
