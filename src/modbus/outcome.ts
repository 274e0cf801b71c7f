/**
 * What the end of a Modbus transaction means as an error number
 * (decisions.md section 4), and when a device counts as absent.
 *
 * Exception codes (Application Protocol V1.1b3, section 7):
 * - 01 illegal function: the device does not support it, -EOPNOTSUPP;
 * - 02 illegal data address, 03 illegal data value: -EINVAL;
 * - 04 server device failure, and 05, 06, 08 and unknown codes: -EIO;
 * - 0A gateway path unavailable, 0B gateway target failed to respond: -ENODEV.
 *
 * Absence. Each unit address is `unknown` until it first answers anything
 * believable (data, an echo or an exception), then `present`. A request that
 * gets no believable answer in all its attempts ("silent"):
 * - from a `present` device reports -ETIMEDOUT; after 3 silent requests in a
 *   row the device becomes `absent`;
 * - from an `unknown` device (never answered since the bus opened) makes it
 *   `absent` at once;
 * - from an `absent` device reports -ENODEV. Absent devices get one attempt
 *   per request, no retries, so that they cost the rest of the bus one response
 *   timeout per scan at most. Any believable answer makes the device present.
 * Garbled answers (bad CRC, wrong length) in every attempt report -EIO: the line
 * is bad but something is there.
 */
import { Errno } from '../errno.js';

export type Presence = 'unknown' | 'present' | 'absent';

/** Silent requests in a row after which a present device is declared absent. */
export const ABSENT_AFTER_SILENT_REQUESTS = 3;

/** The error number of a Modbus exception code. */
export function exceptionErrno(code: number): number {
  switch (code) {
    case 0x01:
      return Errno.EOPNOTSUPP;
    case 0x02:
    case 0x03:
      return Errno.EINVAL;
    case 0x0a:
    case 0x0b:
      return Errno.ENODEV;
    default:
      return Errno.EIO;
  }
}

/** Per-unit presence bookkeeping of one bus (at most 247 entries). */
export class PresenceTable {
  private readonly state = new Map<number, { presence: Presence; silent: number }>();

  presence(unit: number): Presence {
    return this.state.get(unit)?.presence ?? 'unknown';
  }

  /** The unit answered something believable. */
  answered(unit: number): void {
    const s = this.state.get(unit);
    if (s === undefined) this.state.set(unit, { presence: 'present', silent: 0 });
    else {
      s.presence = 'present';
      s.silent = 0;
    }
  }

  /** A whole request went unanswered; returns the error number to report. */
  silent(unit: number): number {
    const s = this.state.get(unit) ?? { presence: 'unknown' as Presence, silent: 0 };
    this.state.set(unit, s);
    s.silent++;
    if (s.presence === 'present' && s.silent < ABSENT_AFTER_SILENT_REQUESTS) return Errno.ETIMEDOUT;
    s.presence = 'absent';
    return Errno.ENODEV;
  }
}
