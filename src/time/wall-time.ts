/**
 * Wall time for stamping records (decisions.md section 4): no timestamp before
 * 2020-01-01. The host clock is trusted once it reads a time after that (SNTP or
 * an RTC set it); until then the offset learned from the service's HTTP `Date`
 * header (IMF-fixdate, parsed here) is used; until either is known, `toWallMs` answers `undefined` and the
 * reporter holds its samples (monotonic time) and stamps them later.
 */
import type { Clock } from '../ports.js';
import { EarliestValidUnixMs } from '../wire.js';

/** `Sun, 06 Nov 1994 08:49:37 GMT`: IMF-fixdate, the one form RFC 9110 (5.6.7) lets a server send. */
const imfFixdate = /^[A-Z][a-z]{2}, (\d\d) ([A-Z][a-z]{2}) (\d{4}) (\d\d):(\d\d):(\d\d) GMT$/;
const months = 'JanFebMarAprMayJunJulAugSepOctNovDec';

/**
 * Unix ms of an HTTP `Date` header, or `undefined` when it is not an IMF-fixdate
 * of a real moment. Parsed here, not by `Date.parse`, whose handling of non-ISO
 * text differs between engines (XS, V8). The obsolete RFC 850 and asctime forms
 * are refused: a service does not send them, and an unknown time only holds
 * samples until a good header or SNTP comes.
 */
export function parseHttpDate(text: string): number | undefined {
  const m = imfFixdate.exec(text.trim());
  const month = m === null ? -1 : months.indexOf(m[2]!);
  if (m === null || month % 3 !== 0) return undefined;
  const [day, hour, minute, second] = [m[1], m[4], m[5], m[6]].map(Number) as [number, number, number, number];
  if (day < 1 || day > 31 || hour > 23 || minute > 59 || second > 60) return undefined;
  return Date.UTC(Number(m[3]), month / 3, day, hour, minute, second);
}

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
