/**
 * The fix tracker: reads the sentences a fix uses from verified lines
 * (NmeaParser's `onLine`), folds them into one current fix and decides whether
 * it is valid (docs/gnss.md, "When is a fix valid"). It reads only the fields
 * the fix uses; a line whose read field is malformed changes nothing.
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
 * - The monotonic time of the last valid fix, for the channel timeout.
 *
 * An epoch is the set of sentences sharing one UTC time; it changes when a
 * timed sentence brings a different time.
 */
import type { Clock } from '../ports.js';
import type { NmeaFields } from './nmea-fields.js';

/** Tri-state of one validity indicator. */
const UNKNOWN = -1;
const BAD = 0;
const GOOD = 1;

/** The sentence types read, as NmeaFields.type numbers, by indicator index; the first four carry a UTC time. */
const KINDS = [0x474741, 0x524d43, 0x474e53, 0x474c4c, 0x475341]; // GGA RMC GNS GLL GSA
const GGA = 0;
const RMC = 1;
const GNS = 2;
const GSA = 4; // GLL is 3
/** Talkers told apart; a further one shares the last slot. */
const TALKERS = 12;
const GN = 0x474e;
/** Fewer satellites used than this make no fix (a 2D fix needs three). */
const MIN_SATS = 3;
/** Characters of the status and mode fields. */
const [A, D, N] = [0x41, 0x44, 0x4e];

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
  alt = NaN;
  pdop = NaN;
  hdop = NaN;
  vdop = NaN;
  sats = NaN;
  /** UTC time of day of the current epoch, ms; NaN before the first timed sentence. */
  timeOfDayMs = NaN;
  /** Monotonic ms of the last valid fix; NaN when there never was one. */
  lastValidFixMs = NaN;
  /** Epochs seen (UTC time changes). */
  epochs = 0;

  /** The validity indicator of each kind in this epoch (UNKNOWN, BAD or GOOD). */
  readonly #flags = new Int8Array(5);
  /** BAD when the epoch's satellites used are known and fewer than MIN_SATS; never GOOD. */
  #satsFlag = UNKNOWN;
  /** True once a GGA, GNS or RMC gave this epoch's position (a GLL then gives none). */
  #primaryPosition = false;
  #stale = false;
  /** The best GSA fix mode of this epoch (0 before its first GSA). */
  #gsaBestMode = 0;
  /** The talkers seen (two letters as one number), then per talker: its last UTC time per timed kind and its satellites this epoch. */
  readonly #talkers = new Uint16Array(TALKERS);
  readonly #lastTimes = new Float64Array(TALKERS * 4).fill(NaN);
  readonly #epochSats = new Float64Array(TALKERS);
  readonly #clock: Clock;
  readonly #onEpochEnd: ((tracker: FixTracker) => void) | undefined;

  constructor(options: FixTrackerOptions) {
    this.#clock = options.clock;
    this.#onEpochEnd = options.onEpochEnd;
    this.#newEpoch();
  }

  /** True when the current fix is valid (not lost; the age is checked by `ageMs`). */
  get valid(): boolean {
    if (this.#stale || this.lat !== this.lat || this.lon !== this.lon) return false;
    const flags = this.#flags;
    // Every indicator agrees, one says "fix"; fewer than 3 satellites are no fix unless a GSA says 2D/3D.
    return !flags.includes(BAD) && flags.includes(GOOD) && (this.#satsFlag !== BAD || flags[GSA] === GOOD);
  }

  /** Milliseconds since the last valid fix on the monotonic clock; Infinity when none. */
  ageMs(): number {
    return this.lastValidFixMs === this.lastValidFixMs ? this.#clock.monotonicMs() - this.lastValidFixMs : Infinity;
  }

  /** Reads one verified line (NmeaParser's `onLine`); false for a type the fix does not use. */
  onLine(f: NmeaFields): boolean {
    const kind = KINDS.indexOf(f.type);
    if (kind < 0) return false;
    // Every field is read before anything is applied (NaN or 0 when absent).
    let flag = UNKNOWN;
    if (kind === GSA) {
      f.expect(18);
      const mode = f.int(2);
      const pdop = f.num(15);
      const hdop = f.num(16);
      const vdop = f.num(17);
      if (!f.bad) this.#gsa(mode, pdop, hdop, vdop);
      return true;
    }
    if (kind === GGA || kind === GNS) {
      f.expect(10);
      const time = f.time(1);
      const lat = f.angle(2, 90);
      const lon = f.angle(4, 180);
      const sats = f.int(7);
      const alt = f.num(9);
      if (kind === GGA) {
        const quality = f.int(6);
        if (quality === quality) flag = quality > 0 && quality < 7 ? GOOD : BAD;
      } else flag = this.#gnsModes(f);
      if (f.bad || !this.#time(time, f.talker, kind)) return true;
      this.#position(lat, lon, true);
      if (alt === alt) this.alt = alt;
      this.#addSats(f.talker, sats);
    } else {
      // RMC: time, status, position ... mode (12); GLL: position, time, status, mode.
      const rmc = kind === RMC;
      f.expect(rmc ? 10 : 5);
      const time = f.time(rmc ? 1 : 5);
      const status = f.char(rmc ? 2 : 6);
      const lat = f.angle(rmc ? 3 : 1, 90);
      const lon = f.angle(rmc ? 5 : 3, 180);
      const mode = f.char(rmc ? 12 : 7);
      const ok = (status === A || (rmc && status === D)) && mode !== N;
      if (status !== 0) flag = ok ? GOOD : BAD;
      if (f.bad || !this.#time(time, f.talker, kind)) return true;
      if (rmc || (ok && !this.#primaryPosition)) this.#position(lat, lon, rmc);
    }
    if (flag !== UNKNOWN) this.#flags[kind] = flag;
    // Only a fresh position sentence proves the fix is alive (not GSA alone).
    if (this.valid) this.lastValidFixMs = this.#clock.monotonicMs();
    return true;
  }

  /** GNS's mode field: one capital letter per constellation; GOOD unless every one is 'N'. */
  #gnsModes(f: NmeaFields): number {
    let flag = UNKNOWN;
    for (let at = f.start[6]!; at < f.end[6]!; at++) {
      const c = f.line[at]!;
      if (c < A || c > 0x5a) f.bad = true;
      flag = c !== N || flag === GOOD ? GOOD : BAD;
    }
    return flag;
  }

  /** Satellites used: a GN (combined) count wins; otherwise the sum over talkers of this epoch. */
  #addSats(talker: number, sats: number): void {
    if (sats !== sats) return;
    const per = this.#epochSats;
    per[this.#slot(talker)] = sats;
    const gn = per[this.#talkers.indexOf(GN)] ?? NaN;
    let sum = gn;
    if (gn !== gn) {
      sum = 0;
      for (let i = 0; i < TALKERS; i++) if (per[i] === per[i]) sum += per[i]!;
    }
    this.sats = sum;
    this.#satsFlag = sum < MIN_SATS ? BAD : UNKNOWN;
  }

  /** The slot of a talker, given one on its first sentence. */
  #slot(talker: number): number {
    const talkers = this.#talkers;
    let i = talkers.indexOf(talker);
    if (i < 0) i = talkers.indexOf(0);
    if (i < 0) return TALKERS - 1;
    talkers[i] = talker;
    return i;
  }

  /**
   * Epoch bookkeeping for a timed sentence. Returns false when the time
   * repeats for this talker and kind (the receiver's time stopped): the fix is
   * marked lost and nothing else of the sentence is applied.
   */
  #time(timeMs: number, talker: number, kind: number): boolean {
    if (timeMs !== timeMs) return true;
    const slot = this.#slot(talker) * 4 + kind;
    const last = this.#lastTimes[slot];
    this.#lastTimes[slot] = timeMs;
    if (timeMs === this.timeOfDayMs) {
      if (timeMs === last) this.#stale = true;
      return timeMs !== last;
    }
    if (this.timeOfDayMs === this.timeOfDayMs) this.#onEpochEnd?.(this);
    this.timeOfDayMs = timeMs;
    this.epochs++;
    this.#newEpoch();
    return true;
  }

  /** Indicators belong to their epoch: a new epoch is judged on its own sentences. */
  #newEpoch(): void {
    this.#stale = false;
    this.#epochSats.fill(NaN);
    this.#flags.fill(UNKNOWN);
    this.#satsFlag = UNKNOWN;
    this.#gsaBestMode = 0;
    this.#primaryPosition = false;
  }

  /** A known position; `primary` when it comes from GGA, GNS or RMC. */
  #position(lat: number, lon: number, primary: boolean): void {
    if (lat !== lat || lon !== lon) return;
    this.lat = lat;
    this.lon = lon;
    if (primary) this.#primaryPosition = true;
  }

  #gsa(mode: number, pdop: number, hdop: number, vdop: number): void {
    if (mode > this.#gsaBestMode) this.#gsaBestMode = mode;
    if (this.#gsaBestMode > 0) this.#flags[GSA] = this.#gsaBestMode >= 2 ? GOOD : BAD;
    if (pdop === pdop) this.pdop = pdop;
    if (hdop === hdop) this.hdop = hdop;
    if (vdop === vdop) this.vdop = vdop;
  }
}
