/**
 * Wall time for stamping records (decisions.md section 4): no timestamp before
 * 2020-01-01. The host clock is trusted once it reads a time after that (SNTP or
 * an RTC set it); until then the offset learned from the service's HTTP `Date`
 * header is used; until either is known, `toWallMs` answers `undefined` and the
 * reporter holds its samples (monotonic time) and stamps them later.
 */
import type { Clock } from '../ports.js';
import { EarliestValidUnixMs } from '../wire.js';
import { parseHttpDate } from './http-date.js';

export type WallTimeSource = 'host' | 'http' | 'unknown';

export class WallTime {
  /** wall = monotonic + offset, learned from the service; undefined until learned. */
  private offsetMs: number | undefined;
  private readonly listeners: Array<() => void> = [];
  private wasKnown = false;

  constructor(private readonly clock: Clock) {}

  /** Where the time comes from now. The host clock wins once it is plausible. */
  get source(): WallTimeSource {
    if (this.clock.wallMs() >= EarliestValidUnixMs) return 'host';
    return this.offsetMs === undefined ? 'unknown' : 'http';
  }

  isKnown(): boolean {
    return this.source !== 'unknown';
  }

  /** Unix ms of the moment `monotonicMs`, or undefined while the time is unknown. */
  toWallMs(monotonicMs: number): number | undefined {
    const hostWall = this.clock.wallMs();
    if (hostWall >= EarliestValidUnixMs) return Math.round(hostWall - (this.clock.monotonicMs() - monotonicMs));
    if (this.offsetMs === undefined) return undefined;
    return Math.round(monotonicMs + this.offsetMs);
  }

  /** Unix ms now, or undefined. */
  nowMs(): number | undefined {
    return this.toWallMs(this.clock.monotonicMs());
  }

  /**
   * Learns the time from an HTTP `Date` header ("when nothing better has",
   * decisions 4): ignored while the host clock is plausible, or when the header
   * is malformed or before 2020. The header has 1 s resolution; +500 ms centres it.
   */
  observeHttpDate(header: string | undefined): void {
    if (header === undefined || this.clock.wallMs() >= EarliestValidUnixMs) {
      this.notifyIfKnown();
      return;
    }
    const unixMs = parseHttpDate(header);
    if (unixMs === undefined || unixMs < EarliestValidUnixMs) return;
    this.offsetMs = unixMs + 500 - this.clock.monotonicMs();
    this.notifyIfKnown();
  }

  /** Calls `listener` once the time becomes known (at once if it is). */
  onKnown(listener: () => void): void {
    this.listeners.push(listener);
    this.notifyIfKnown();
  }

  private notifyIfKnown(): void {
    if (!this.isKnown()) return;
    if (this.wasKnown && this.listeners.length === 0) return;
    this.wasKnown = true;
    const pending = this.listeners.splice(0, this.listeners.length);
    for (const listener of pending) listener();
  }
}
