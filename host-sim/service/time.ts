/**
 * Time parameters, strictly (decisions 6, strict time). Read ranges
 * (`timeRangeStart`, `timeRangeStop`): Unix seconds, ISO 8601 with a real
 * calendar date, or a negative Flux Duration relative to now (`-` then
 * `<integer><unit>` parts, units ns us µs ms s m h d w mo y, largest first);
 * the result must fall in 1970-01-01 .. 9999-12-31. Write timestamps: a JSON
 * number of Unix seconds or an ISO 8601 string, from 2000-01-01 to one day
 * after the server's now. `windowPeriod`: 1 ms to 3,650 days. Everything else
 * is a 400 naming the parameter. Everything is resolved to Unix milliseconds.
 */
import { badRequest } from './errors.js';
import type { JsonObject } from './wire.js';

const unitMs: Readonly<Record<string, number>> = {
  ns: 1e-6,
  us: 1e-3,
  µs: 1e-3,
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
  w: 604_800_000,
};
/** Rank of each unit, largest first (µs and us share a rank). */
const rank: Readonly<Record<string, number>> = {
  y: 0,
  mo: 1,
  w: 2,
  d: 3,
  h: 4,
  m: 5,
  s: 6,
  ms: 7,
  us: 8,
  µs: 8,
  ns: 9,
};
const durationPattern = /^-?(\d+(ns|us|µs|ms|mo|s|m|h|d|w|y))+$/;
const partPattern = /(\d+)(ns|us|µs|ms|mo|s|m|h|d|w|y)/g;
const numberPattern = /^-?\d+(\.\d+)?([eE][-+]?\d+)?$/;
const isoPattern =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?(Z|([+-])(\d{2}):?(\d{2}))?)?$/;

/** Read times resolve into [0, this]: 9999-12-31T23:59:59.999Z. */
export const latestReadMs = 253_402_300_799_999;
/** Write timestamps: not before 2000-01-01T00:00:00Z ... */
export const earliestWriteMs = 946_684_800_000;
/** ... and not more than one day after the server's now. */
export const writeAheadMs = 86_400_000;
/** `windowPeriod` at most 3,650 days. */
export const maxWindowMs = 3650 * 86_400_000;

/** A parsed Duration: calendar months plus fixed milliseconds, with a sign. */
export interface Duration {
  negative: boolean;
  months: number;
  fixedMs: number;
}

/** Parses a Flux Duration; undefined when `text` is not one (or units are out of order). */
export function parseDuration(text: string): Duration | undefined {
  if (!durationPattern.test(text)) return undefined;
  let months = 0;
  let fixedMs = 0;
  let lastRank = -1;
  for (const m of text.matchAll(partPattern)) {
    const n = Number(m[1]);
    const unit = m[2] as string;
    const r = rank[unit] as number;
    if (r <= lastRank) return undefined;
    lastRank = r;
    if (unit === 'y') months += 12 * n;
    else if (unit === 'mo') months += n;
    else fixedMs += n * (unitMs[unit] as number);
  }
  return { negative: text.startsWith('-'), months, fixedMs };
}

/**
 * `nowMs` moved by a Duration: calendar months in UTC first (the day is clamped
 * to the target month's last day, as Flux does: Mar 31 - 1mo = Feb 28), then
 * the fixed part.
 */
export function applyDuration(nowMs: number, d: Duration): number {
  const sign = d.negative ? -1 : 1;
  let t = nowMs;
  if (d.months !== 0) {
    const date = new Date(nowMs);
    const monthIndex = date.getUTCFullYear() * 12 + date.getUTCMonth() + sign * d.months;
    const year = Math.floor(monthIndex / 12);
    const month = monthIndex - year * 12;
    const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
    date.setUTCFullYear(year, month, Math.min(date.getUTCDate(), lastDay));
    t = date.getTime();
  }
  return t + sign * d.fixedMs;
}

/**
 * ISO 8601 (a calendar date, optionally a time and a zone) as Unix ms, or
 * undefined when `text` is not one or names no real instant (2024-02-30,
 * 25:00, +24:00). A time without a zone is UTC.
 */
export function parseIso(text: string): number | undefined {
  const m = isoPattern.exec(text);
  if (!m) return undefined;
  const n = (i: number): number => (m[i] === undefined ? 0 : Number(m[i]));
  const [year, month, day, hour, minute, second] = [n(1), n(2), n(3), n(4), n(5), n(6)];
  const fraction = m[7] === undefined ? 0 : Number(m[7]) * 1000;
  const [offsetH, offsetM] = [n(10), n(11)];
  if (month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 59) return undefined;
  if (offsetH > 23 || offsetM > 59) return undefined;
  if (day > new Date(Date.UTC(year, month, 0)).getUTCDate()) return undefined;
  const utc = new Date(0);
  utc.setUTCFullYear(year, month - 1, day);
  utc.setUTCHours(hour, minute, second, 0);
  const offsetMs = (m[9] === '-' ? -1 : 1) * (offsetH * 60 + offsetM) * 60_000;
  return utc.getTime() + fraction - offsetMs;
}

/**
 * A read time (query string, or number) as Unix ms: Unix seconds, ISO 8601 or
 * a negative Duration; within 1970..9999. Throws 400 naming `name`.
 */
export function parseTime(name: string, value: unknown, nowMs: number): number {
  let ms: number | undefined;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw badRequest(`${name}: expected a finite number`);
    ms = value * 1000;
  } else if (typeof value !== 'string') {
    throw badRequest(`${name}: expected a number or a string, got ${JSON.stringify(value)}`);
  } else if (numberPattern.test(value)) ms = Number(value) * 1000;
  else if (/^\d{4}-/.test(value)) {
    ms = parseIso(value);
    if (ms === undefined) throw badRequest(`${name}: ${JSON.stringify(value)} is not a real ISO 8601 date and time`);
  } else {
    const d = parseDuration(value);
    if (d && !d.negative) throw badRequest(`${name}: a Duration must be negative (relative to now), like -1h`);
    if (d) ms = applyDuration(nowMs, d);
  }
  if (ms === undefined) {
    throw badRequest(
      `${name}: ${JSON.stringify(value)} is neither Unix seconds, ISO 8601 nor a negative Duration like -1h30m (units ns us ms s m h d w mo y, largest first)`,
    );
  }
  if (!(ms >= 0 && ms <= latestReadMs)) {
    throw badRequest(`${name}: ${JSON.stringify(value)} is outside 1970-01-01 .. 9999-12-31`);
  }
  return ms;
}

/** A `windowPeriod`: a number of seconds or a positive fixed Duration, as ms (1 ms .. 3,650 days). */
export function parseWindowPeriod(value: string): number {
  let ms: number | undefined;
  if (numberPattern.test(value)) ms = Number(value) * 1000;
  else {
    const d = parseDuration(value);
    if (d && d.months !== 0) throw badRequest('windowPeriod: calendar units (mo, y) are not supported');
    if (d && !d.negative) ms = d.fixedMs;
  }
  if (ms === undefined)
    throw badRequest(`windowPeriod: ${JSON.stringify(value)} is neither seconds nor a Duration like 1m`);
  if (!(ms >= 1 && ms <= maxWindowMs)) throw badRequest('windowPeriod: must be between 1 ms and 3650 days');
  return Math.round(ms);
}

/** Timestamps on the wire: Unix seconds with millisecond precision (spec 2.1). */
export function toWireSeconds(ms: number): number {
  return Math.round(ms) / 1000;
}

/**
 * A write entry's `timestamp` (spec 4.6-4.7) in integer Unix ms: a JSON number
 * of Unix seconds or an ISO 8601 string, from 2000-01-01 to one day after
 * `nowMs`; `nowMs` when absent. Throws 400 naming the entry.
 */
export function writeTimestamp(entry: JsonObject, at: string, nowMs: number): number {
  const t = entry['timestamp'];
  if (t === undefined || t === null) return Math.round(nowMs);
  const field = `${at}.timestamp`;
  let ms: number | undefined;
  if (typeof t === 'number') ms = Number.isFinite(t) ? t * 1000 : undefined;
  else if (typeof t === 'string') ms = parseIso(t);
  if (ms === undefined) {
    throw badRequest(`${field}: expected Unix seconds (a number) or an ISO 8601 date, got ${JSON.stringify(t)}`);
  }
  if (ms < earliestWriteMs) throw badRequest(`${field}: ${JSON.stringify(t)} is before 2000-01-01`);
  if (ms > nowMs + writeAheadMs) {
    const hint = typeof t === 'number' && t * 1000 > 1e15 ? ' (milliseconds? the wire carries Unix seconds)' : '';
    throw badRequest(`${field}: ${JSON.stringify(t)} is more than a day after the server's time${hint}`);
  }
  return Math.round(ms);
}
