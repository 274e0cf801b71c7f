/**
 * The status line of `npm run agent` and `npm run device` on a terminal (as
 * `npm start` shows its state): one line at the bottom of standard error,
 * redrawn in place every second with what the agent is doing (service and hub
 * state, channels, records sampled, sent, queued and dropped), the log lines
 * scrolling above it. It is cut to the terminal's width, so it never wraps and
 * leaves stray lines behind. Not a terminal (a pipe, a CI log, a service
 * manager): nothing is drawn, and the CLI logs an `info status` line every
 * 10 s instead.
 */
import type { AgentCounters } from '../../src/agent/counters.js';

/** The part of a terminal stream the line uses (process.stderr, or a test's virtual terminal). */
export interface StatusScreen {
  write(text: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

export interface AgentStatus {
  online: boolean;
  /** The hub connection's state, or 'off' (`--no-hub`). */
  hub: string;
  channels: number;
  counters: Readonly<AgentCounters>;
}

/** The text of the status line (uncut). */
export function statusText(s: AgentStatus): string {
  const c = s.counters;
  return (
    `service ${s.online ? 'online' : 'OFFLINE'}  hub ${s.hub}  channels ${s.channels}  sampled ${c.sampled}  ` +
    `sent ${c.sent}  queued ${c.queued}  dropped ${c.dropped}  (Ctrl-C stops)`
  );
}

export class StatusLine {
  #shown = '';

  constructor(private readonly screen: StatusScreen) {}

  /** Whether the screen is a terminal (else the line is never drawn). */
  get active(): boolean {
    return this.screen.isTTY === true;
  }

  /** Draws `text` in place of the previous status, cut to the terminal's width. */
  show(text: string): void {
    if (!this.active) return;
    this.#shown = text.slice(0, Math.max(1, (this.screen.columns ?? 80) - 1));
    this.screen.write(`\r\x1b[2K${this.#shown}`);
  }

  /** Writes a log line above the status line (which is drawn again under it). */
  print(line: string): void {
    if (!this.active) {
      this.screen.write(line + '\n');
      return;
    }
    this.screen.write(`\r\x1b[2K${line}\n${this.#shown}`);
  }

  /** Removes the status line (at exit, so the shell's prompt starts on a clean line). */
  clear(): void {
    if (this.active && this.#shown !== '') this.screen.write('\r\x1b[2K');
    this.#shown = '';
  }
}
