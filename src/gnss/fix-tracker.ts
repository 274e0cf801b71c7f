/**
 * The fix tracker: folds typed sentences into one current fix and decides
 * whether it is valid (docs/gnss.md, "When is a fix valid").
 *
 * - Position from GGA, GNS or RMC, whichever comes; GLL (status A, mode not N)
 *   gives the position of an epoch that none of those covers. Altitude and
 *   satellites used from GGA or GNS. Several GGAs of one epoch from different
 *   talkers (GPGGA beside GLGGA) add their satellites; a GN (combined) talker wins.
 * - DOPs and fix mode from GSA; the GSAs of one epoch (one per constellation)
 *   are merged: best mode, DOPs of the last one that carries them.
 * - Validity: every indicator seen in the current epoch must agree and at
 *   least one must say "fix" (RMC status and FAA mode, GLL status and mode,
 *   GGA quality 1-6, GNS modes, GSA mode 2/3), a position must be known, and
 *   the epoch's satellites used (GGA/GNS), when given, must be 3 or more
 *   unless a GSA of the epoch reports a 2D/3D fix (gpsd's outcome). GGA
 *   quality 7 (manual input) and 8 (simulator) are not fixes.
 * - The gpsd rule: a GGA, GNS, RMC or GLL whose UTC time equals the previous
 *   one of the same talker and type means the receiver's time stopped: the fix
 *   is lost until the time moves on.
 * - The date follows the time of day over midnight (a jump back of more than
 *   12 hours is the next day), so a clock stepped back a few seconds is not a
 *   new day.
 * - The monotonic time of the last valid fix, for the channel timeout.
 *
 * An epoch is the set of sentences sharing one UTC time; it changes when a
 * timed sentence brings a different time.
 */
import type { Clock } from '../ports.js';
import type { NmeaSentence } from './sentences.js';
import { Talkers } from './sentences.js';

/** Tri-state of one validity indicator. */
const UNKNOWN = -1;
const BAD = 0;
const GOOD = 1;

/** Sentence kinds that carry a validity indicator; the first four are timed (they carry a UTC time). */
const kindIndex = { GGA: 0, RMC: 1, GNS: 2, GLL: 3, GSA: 4 } as const;
const TIMED_KINDS = 4;
/** Fewer satellites used than this make no fix (a 2D fix needs three). */
const MIN_SATS = 3;
const HALF_DAY_MS = 43_200_000;

export interface FixTrackerOptions {
  clock: Clock;
  /**
   * Called when an epoch ends (a timed sentence brings a new UTC time), before
   * the new sentence is applied; the tracker still shows the ended epoch.
   */
  onEpochEnd?: (tracker: FixTracker) => void;
}

export class FixTracker {
  /** Degrees; NaN when unknown. */
  lat = NaN;
  lon = NaN;
  /** Metres above mean sea level. */
  altM = NaN;
  pdop = NaN;
  hdop = NaN;
  vdop = NaN;
  sats = NaN;
  /** UTC time of day of the current epoch, ms; NaN before the first timed sentence. */
  timeOfDayMs = NaN;
  /** Days since 1970-01-01 from the last RMC; NaN when unknown. */
  dateDays = NaN;
  /** Monotonic ms of the last valid fix; NaN when there never was one. */
  lastValidFixMs = NaN;
  /** Epochs seen (UTC time changes). */
  epochs = 0;

  /** The validity indicator of each kind in this epoch (UNKNOWN, BAD or GOOD), by kindIndex. */
  private readonly flags = new Int8Array(5).fill(UNKNOWN);
  /** BAD when the epoch's satellites used are known and fewer than MIN_SATS; never GOOD. */
  private satsFlag = UNKNOWN;
  /** True once a GGA, GNS or RMC gave this epoch's position (a GLL then gives none). */
  private primaryPosition = false;
  private stale = false;
  /** The best GSA fix mode of this epoch (0 before its first GSA). */
  private gsaBestMode = 0;
  /** Last UTC time per (talker, timed kind). */
  private readonly lastTimes = new Float64Array(Talkers.length * TIMED_KINDS).fill(NaN);
  /** Satellites used per talker in the current epoch (NaN unknown). */
  private readonly epochSats = new Float64Array(Talkers.length).fill(NaN);
  private readonly clock: Clock;
  private readonly onEpochEnd: ((tracker: FixTracker) => void) | undefined;

  constructor(options: FixTrackerOptions) {
    this.clock = options.clock;
    this.onEpochEnd = options.onEpochEnd;
  }

  /** True when the current fix is valid (not lost; the age is checked by `ageMs`). */
  get valid(): boolean {
    if (this.stale || Number.isNaN(this.lat) || Number.isNaN(this.lon)) return false;
    const flags = this.flags;
    let good = false;
    for (let k = 0; k < flags.length; k++) {
      if (flags[k] === BAD) return false;
      if (flags[k] === GOOD) good = true;
    }
    // Fewer than 3 satellites used make no fix, unless a GSA of the epoch reports a 2D/3D fix.
    return good && (this.satsFlag !== BAD || flags[kindIndex.GSA] === GOOD);
  }

  /** Milliseconds since the last valid fix on the monotonic clock; Infinity when none. */
  ageMs(): number {
    return Number.isNaN(this.lastValidFixMs) ? Infinity : this.clock.monotonicMs() - this.lastValidFixMs;
  }

  /** Applies one verified sentence. */
  onSentence(s: NmeaSentence): void {
    let timed = false;
    switch (s.type) {
      case 'GGA':
      case 'GNS': {
        const gga = s.type === 'GGA';
        if (!(timed = this.time(s.timeMs, s.talker, kindIndex[s.type]))) break;
        this.position(s.lat, s.lon, true);
        if (!Number.isNaN(s.altM)) this.altM = s.altM;
        if (gga ? !Number.isNaN(s.quality) : s.modes !== '')
          this.flags[kindIndex[s.type]] = (gga ? s.quality > 0 && s.quality < 7 : s.anyFix) ? GOOD : BAD;
        this.addSats(s.talker, s.sats);
        break;
      }
      case 'RMC':
      case 'GLL': {
        if (!(timed = this.time(s.timeMs, s.talker, kindIndex[s.type]))) break;
        const ok = (s.status === 'A' || (s.type === 'RMC' && s.status === 'D')) && s.mode !== 'N';
        if (s.status !== '') this.flags[kindIndex[s.type]] = ok ? GOOD : BAD;
        if (s.type === 'RMC') {
          this.position(s.lat, s.lon, true);
          if (!Number.isNaN(s.dateDays)) this.dateDays = s.dateDays;
        } else if (ok && !this.primaryPosition) this.position(s.lat, s.lon, false);
        break;
      }
      case 'GSA':
        this.gsa(s.fixMode, s.pdop, s.hdop, s.vdop);
        break;
      // GSV: satellites in view are not part of the Location.
    }
    // Only a fresh position sentence proves the fix is alive (not GSV or GSA alone).
    if (timed && this.valid) this.lastValidFixMs = this.clock.monotonicMs();
  }

  /** Satellites used: a GN (combined) count wins; otherwise the sum over talkers of this epoch. */
  private addSats(talker: (typeof Talkers)[number], sats: number): void {
    if (Number.isNaN(sats)) return;
    const per = this.epochSats;
    per[Talkers.indexOf(talker)] = sats;
    const gn = per[1] as number; // Talkers[1] === 'GN'
    if (!Number.isNaN(gn)) {
      this.sats = gn;
      this.satsFlag = gn < MIN_SATS ? BAD : UNKNOWN;
      return;
    }
    let sum = 0;
    for (let i = 0; i < per.length; i++) if (!Number.isNaN(per[i] as number)) sum += per[i] as number;
    this.sats = sum;
    this.satsFlag = sum < MIN_SATS ? BAD : UNKNOWN;
  }

  /**
   * Epoch bookkeeping for a timed sentence. Returns false when the time
   * repeats for this talker and kind (the receiver's time stopped): the fix is
   * marked lost and nothing else of the sentence is applied.
   */
  private time(timeMs: number, talker: (typeof Talkers)[number], kind: number): boolean {
    if (Number.isNaN(timeMs)) return true;
    const slot = Talkers.indexOf(talker) * TIMED_KINDS + kind;
    const last = this.lastTimes[slot] as number;
    this.lastTimes[slot] = timeMs;
    if (timeMs === last && timeMs === this.timeOfDayMs) {
      this.stale = true;
      return false;
    }
    if (timeMs !== this.timeOfDayMs) {
      const previous = this.timeOfDayMs;
      if (!Number.isNaN(previous)) this.onEpochEnd?.(this);
      // Over midnight the date moves with the time, until the next RMC brings it.
      if (timeMs < previous - HALF_DAY_MS) this.dateDays++;
      else if (timeMs > previous + HALF_DAY_MS) this.dateDays--;
      this.timeOfDayMs = timeMs;
      this.epochs++;
      this.stale = false;
      this.epochSats.fill(NaN);
      // Indicators belong to their epoch: a new epoch is judged on its own sentences.
      this.flags.fill(UNKNOWN);
      this.satsFlag = UNKNOWN;
      this.gsaBestMode = 0;
      this.primaryPosition = false;
    }
    return true;
  }

  /** A known position; `primary` when it comes from GGA, GNS or RMC. */
  private position(lat: number, lon: number, primary: boolean): void {
    if (Number.isNaN(lat) || Number.isNaN(lon)) return;
    this.lat = lat;
    this.lon = lon;
    if (primary) this.primaryPosition = true;
  }

  private gsa(mode: number, pdop: number, hdop: number, vdop: number): void {
    if (!Number.isNaN(mode) && mode > this.gsaBestMode) this.gsaBestMode = mode;
    if (this.gsaBestMode > 0) this.flags[kindIndex.GSA] = this.gsaBestMode >= 2 ? GOOD : BAD;
    if (!Number.isNaN(pdop)) this.pdop = pdop;
    if (!Number.isNaN(hdop)) this.hdop = hdop;
    if (!Number.isNaN(vdop)) this.vdop = vdop;
  }
}
