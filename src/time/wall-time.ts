/**
 * Wall time for stamping records (decisions.md section 4): no timestamp before
 * 2020-01-01. The host clock is trusted once it reads a time after that (SNTP or
 * an RTC set it); until then the offset learned from the service's HTTP `Date`
 * header is used; until either is known, `toWallMs` answers `undefined` and the
 * reporter holds its samples (monotonic time) and stamps them later.
 */
import type { Clock } from '../ports.js';
import { EarliestValidUnixMs } from '../wire.js';

/**
 * The three HTTP-date forms a recipient must accept (RFC 9110 section 5.6.7),
 * as one pattern: IMF-fixdate `Sun, 06 Nov 1994 08:49:37 GMT` (what the service
 * sends), RFC 850 `Sunday, 06-Nov-94 08:49:37 GMT` and asctime
 * `Sun Nov  6 08:49:37 1994`. After the weekday come IMF-fixdate's day, month,
 * year (groups 1-3), RFC 850's (4-6) or asctime's month and day (7, 8); then
 * the time (9-11), and ` GMT`, or asctime's year (12). A month is any three
 * word characters here; only the twelve names are found in `months`. Read
 * without `Date.parse`, whose handling of non-ISO text differs between engines
 * (XS, V8).
 */
const httpDate =
  /^[A-Z][a-z]{2}(?:, (\d\d) (\w{3}) (\d{4})|[a-z]{3,6}, (\d\d)-(\w{3})-(\d\d)| (\w{3}) ([ \d]\d)) (\d\d):(\d\d):(\d\d) (GMT|\d{4})$/;
const months = 'JanFebMarAprMayJunJulAugSepOctNovDec';
type Five = [number, number, number, number, number];

/**
 * Unix milliseconds of an HTTP date, or `undefined` when the text is none of the
 * three forms. RFC 850's two-digit year is read as 1971-2070: the RFC's "more than
 * 50 years in the future" rule taken from 2020, the earliest time a device accepts
 * (a device reading the header has no better "now").
 */
export function parseHttpDate(text: string): number | undefined {
  const [, d1, m1, y1, d2, m2, y2, m3, d3, hh, mm, ss, end] = httpDate.exec(text.trim()) ?? [];
  // asctime ends with its year, the other two forms with GMT.
  if (end === undefined || (m3 === undefined) !== (end === 'GMT')) return undefined;
  const month = months.indexOf(m1 ?? m2 ?? m3 ?? '');
  const [day, year, hour, minute, second] = [d1 ?? d2 ?? d3, y1 ?? y2 ?? end, hh, mm, ss].map(Number) as Five;
  if (month % 3 !== 0 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 60) return undefined;
  return Date.UTC(year < 100 ? year + (year > 70 ? 1900 : 2000) : year, month / 3, day, hour, minute, second);
}

export class WallTime {
  readonly #clock: Clock;
  /** wall = monotonic + offset, learned from the service; undefined until learned. */
  #offsetMs: number | undefined;
  /** What waits for the time to be known (the reporter's held records): one listener at a time. */
  #listener: (() => void) | undefined;

  constructor(clock: Clock) {
    this.#clock = clock;
  }

  /** Unix ms of the moment `monotonicMs`, or undefined while the time is unknown. */
  toWallMs(monotonicMs: number): number | undefined {
    const hostWall = this.#clock.wallMs();
    const offsetMs = hostWall >= EarliestValidUnixMs ? hostWall - this.#clock.monotonicMs() : this.#offsetMs;
    return offsetMs === undefined ? undefined : Math.round(monotonicMs + offsetMs);
  }

  /**
   * Unix ms now, or undefined while the time is unknown: known (records can be stamped) once the
   * host clock is plausible or a `Date` header was learned.
   */
  nowMs(): number | undefined {
    return this.toWallMs(this.#clock.monotonicMs());
  }

  /**
   * Learns the time from an HTTP `Date` header ("when nothing better has",
   * decisions 4): ignored while the host clock is plausible, or when the header
   * is malformed or before 2020. The header has 1 s resolution; +500 ms centres it.
   */
  observeHttpDate(header: string | undefined): void {
    if (header !== undefined && this.#clock.wallMs() < EarliestValidUnixMs) {
      const unixMs = parseHttpDate(header);
      if (unixMs === undefined || unixMs < EarliestValidUnixMs) return;
      this.#offsetMs = unixMs + 500 - this.#clock.monotonicMs();
    }
    this.#notifyIfKnown();
  }

  /** Calls `listener` once the time becomes known (at once if it is); it takes the place of one still waiting. */
  onKnown(listener: () => void): void {
    this.#listener = listener;
    this.#notifyIfKnown();
  }

  #notifyIfKnown(): void {
    const listener = this.#listener;
    if (listener === undefined || this.nowMs() === undefined) return;
    this.#listener = undefined;
    listener();
  }
}
