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
 * - The monotonic time of the last valid fix: `locate` gives a channel the
 *   fix, or nothing once it is older than the channel's timeout.
 *
 * An epoch is the set of sentences sharing one UTC time; it changes when a
 * timed sentence brings a different time. Counting epochs and hearing where
 * they end is for the host tools and tests (EpochTracker, epoch-tracker.ts).
 */
import type { Location } from '../agent/driver.js';
import type { Clock } from '../ports.js';
import { LocationFields } from '../wire.js';
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
const GLL = 3;
const GSA = 4;
/** A field index past any line's last field: reads as empty (the kind does not carry the field). */
const _ = 99;
/**
 * Where each kind keeps the fields the fix reads, by field index; one reading
 * path for all five. `code` is GGA's quality or GSA's fix mode; `lat` is
 * followed by N/S, longitude and E/W; `dops` is PDOP, then HDOP and VDOP.
 * GNS's mode field (6) holds one letter per constellation and is read apart.
 */
const LAYOUT = [
  // minFields time lat status mode code sats alt dops
  [10, 1, 2, _, _, 6, 7, 9, _], // GGA
  [10, 1, 3, 2, 12, _, _, _, _], // RMC
  [10, 1, 2, _, _, _, 7, 9, _], // GNS
  [5, 5, 1, 6, 7, _, _, _, _], // GLL: time, status and mode absent on older receivers
  [18, _, _, _, _, 2, _, _, 15], // GSA
];
/** Talkers told apart; a further one shares the last slot. */
const TALKERS = 12;
const GN = 0x474e;
/** Fewer satellites used than this make no fix (a 2D fix needs three). */
const MIN_SATS = 3;
/** Characters of the status and mode fields. */
const A = 0x41;
const D = 0x44;
const N = 0x4e;

export interface FixTrackerOptions {
  clock: Clock;
}

export class FixTracker {
  // Every number is NaN until known: the constructor sets them (one loop for the location's).
  /** Degrees. */
  declare lat: number;
  declare lon: number;
  /** Metres above mean sea level. */
  declare alt: number;
  declare pdop: number;
  declare hdop: number;
  declare vdop: number;
  declare sats: number;
  /** UTC time of day of the current epoch, ms; NaN before the first timed sentence. */
  declare timeOfDayMs: number;
  /** Monotonic ms of the last valid fix; NaN when there never was one. */
  declare lastValidFixMs: number;

  /** The validity indicator of each kind in this epoch (UNKNOWN, BAD or GOOD). */
  readonly #flags = new Int8Array(5);
  // The epoch's own state, set by #newEpoch (the constructor's too).
  /** True when the epoch's satellites used are known and fewer than MIN_SATS. */
  #fewSats!: boolean;
  /** True once a GGA, GNS or RMC gave this epoch's position (a GLL then gives none). */
  #primaryPosition!: boolean;
  #stale!: boolean;
  /** The talkers seen (two letters as one number), then per talker: its last UTC time per timed kind and its satellites this epoch. */
  readonly #talkers = new Uint16Array(TALKERS);
  readonly #lastTimes = new Float64Array(TALKERS * 4).fill(NaN);
  readonly #epochSats = new Float64Array(TALKERS);
  readonly #clock: Clock;

  constructor(options: FixTrackerOptions) {
    for (const key of LocationFields) this[key] = NaN;
    this.timeOfDayMs = this.lastValidFixMs = NaN;
    this.#clock = options.clock;
    this.#newEpoch();
  }

  /** True when the current fix is valid (not lost; its age is checked by `locate`). */
  get valid(): boolean {
    // Latitude and longitude are only ever set together: one NaN test covers both.
    if (this.#stale || this.lat !== this.lat) return false;
    const flags = this.#flags;
    // Every indicator agrees, one says "fix"; fewer than 3 satellites are no fix unless a GSA says 2D/3D.
    return !flags.includes(BAD) && flags.includes(GOOD) && (!this.#fewSats || flags[GSA] === GOOD);
  }

  /**
   * A location channel's reading: the fix into `out` (a field present when
   * known) when it is valid and its last valid fix at most `timeoutMs` old on
   * the monotonic clock; false, `out` untouched, otherwise.
   */
  locate(timeoutMs: number, out: Location): boolean {
    if (!this.valid || !(this.#clock.monotonicMs() - this.lastValidFixMs <= timeoutMs)) return false;
    for (let i = 0; i < LocationFields.length; i++) {
      const key = LocationFields[i]!;
      const value = this[key];
      if (value === value) out[key] = value;
      else delete out[key];
    }
    return true;
  }

  /** Reads one verified line (NmeaParser's `onLine`); false for a type the fix does not use. */
  onLine(f: NmeaFields): boolean {
    const kind = KINDS.indexOf(f.type);
    if (kind < 0) return false;
    // Every field is read before anything is applied (NaN or 0 when absent).
    const at = LAYOUT[kind]!;
    f.expect(at[0]!);
    const time = f.time(at[1]!);
    const lat = f.angle(at[2]!, 90);
    const lon = f.angle(at[2]! + 2, 180);
    const status = f.char(at[3]!);
    const mode = f.char(at[4]!);
    const code = f.int(at[5]!);
    const sats = f.int(at[6]!);
    const alt = f.num(at[7]!);
    const pdop = f.num(at[8]!);
    const hdop = f.num(at[8]! + 1);
    const vdop = f.num(at[8]! + 2);
    let flag = UNKNOWN;
    if (kind === GNS) {
      // GNS's mode field: one capital letter per constellation; GOOD unless every one is 'N'.
      for (let at = f.start[6]!; at < f.end[6]!; at++) {
        const c = f.line[at]!;
        if (c < A || c > 0x5a) f.bad = true;
        flag = c !== N || flag === GOOD ? GOOD : BAD;
      }
    } else if (status !== 0) flag = (status === A || (status === D && kind === RMC)) && mode !== N ? GOOD : BAD;
    else if (kind === GGA && code === code)
      flag = code > 0 && code < 7 ? GOOD : BAD; // 7 manual, 8 simulator
    else if (code > 0) flag = code >= 2 || this.#flags[GSA] === GOOD ? GOOD : BAD; // GSA: the epoch's best mode
    if (f.bad) return true;
    // Epoch bookkeeping for a timed sentence. When the time repeats for this talker and kind (the
    // receiver's time stopped), the fix is marked lost and nothing else of the sentence is applied.
    if (time === time) {
      const slot = this.#slot(f.talker) * 4 + kind;
      const last = this.#lastTimes[slot];
      this.#lastTimes[slot] = time;
      if (time !== this.timeOfDayMs) {
        this.timeOfDayMs = time;
        this.#newEpoch();
      } else if (time === last) {
        this.#stale = true;
        return true;
      }
    }
    // A GLL gives the position of a second no GGA, GNS or RMC covers.
    if (lat === lat && lon === lon && (kind !== GLL || (flag === GOOD && !this.#primaryPosition))) {
      this.lat = lat;
      this.lon = lon;
      this.#primaryPosition ||= kind !== GLL;
    }
    if (alt === alt) this.alt = alt;
    if (pdop === pdop) this.pdop = pdop;
    if (hdop === hdop) this.hdop = hdop;
    if (vdop === vdop) this.vdop = vdop;
    // Satellites used: a GN (combined) count wins; otherwise the sum over talkers of this epoch.
    if (sats === sats) {
      const per = this.#epochSats;
      per[this.#slot(f.talker)] = sats;
      let sum = per[this.#talkers.indexOf(GN)] ?? NaN;
      if (sum !== sum) {
        sum = 0;
        for (let i = 0; i < TALKERS; i++) if (per[i] === per[i]) sum += per[i]!;
      }
      this.sats = sum;
      this.#fewSats = sum < MIN_SATS;
    }
    if (flag !== UNKNOWN) this.#flags[kind] = flag;
    // Only a fresh position sentence proves the fix is alive (not GSA alone).
    if (kind !== GSA && this.valid) this.lastValidFixMs = this.#clock.monotonicMs();
    return true;
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

  /** Indicators belong to their epoch: a new epoch is judged on its own sentences. */
  #newEpoch(): void {
    this.#stale = false;
    this.#epochSats.fill(NaN);
    this.#flags.fill(UNKNOWN);
    this.#fewSats = false;
    this.#primaryPosition = false;
  }
}
