/**
 * A recording Logger. `assertNoErrors` fails a test on unexpected error lines
 * (SignalR's VerifyLogger idea, STYLE.md practice 11).
 */
import type { LogFields, Logger, LogLevel } from '../../src/ports.js';

export interface LogLine {
  level: LogLevel;
  message: string;
  fields: LogFields | undefined;
}

export class FakeLogger implements Logger {
  readonly lines: LogLine[] = [];

  log(level: LogLevel, message: string, fields?: LogFields): void {
    this.lines.push({ level, message, fields });
  }

  /** Lines at `level` whose message contains `text`. */
  find(level: LogLevel, text = ''): LogLine[] {
    return this.lines.filter((l) => l.level === level && l.message.includes(text));
  }

  /** Throws when an error line was logged that `expected` does not match. */
  assertNoErrors(expected: readonly RegExp[] = []): void {
    const bad = this.lines.filter((l) => l.level === 'error' && !expected.some((re) => re.test(l.message)));
    if (bad.length > 0) throw new Error(`unexpected error log: ${bad.map((l) => l.message).join(' | ')}`);
  }
}
