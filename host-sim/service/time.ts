/**
 * Time parameters (decisions 6): a number is Unix seconds (fractional allowed);
 * a string is ISO 8601 or a Flux Duration relative to now: optional leading
 * `-`, then one or more `<integer><unit>` with units ns us µs ms s m h d w mo y,
 * largest first. Everything is resolved to Unix milliseconds.
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
const isoPattern = /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

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

/** A time value from a query (string) or body (number or string) as Unix ms. Throws 400 naming `name`. */
export function parseTime(name: string, value: unknown, nowMs: number): number {
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw badRequest(`${name}: expected a finite number`);
    return value * 1000;
  }
  if (typeof value !== 'string')
    throw badRequest(`${name}: expected a number or a string, got ${JSON.stringify(value)}`);
  if (numberPattern.test(value)) return Number(value) * 1000;
  if (isoPattern.test(value)) {
    const ms = Date.parse(value.length === 10 ? `${value}T00:00:00Z` : value);
    if (Number.isFinite(ms)) return ms;
  }
  const d = parseDuration(value);
  if (d) return applyDuration(nowMs, d);
  throw badRequest(
    `${name}: ${JSON.stringify(value)} is neither Unix seconds, ISO 8601 nor a Duration like -1h30m (units ns us ms s m h d w mo y, largest first)`,
  );
}

/** A `windowPeriod`: a number of seconds or a positive fixed Duration, as ms (>= 1 ms). */
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
  if (!(ms >= 1)) throw badRequest('windowPeriod: must be at least 1 ms');
  return Math.round(ms);
}

/** Timestamps on the wire: Unix seconds with millisecond precision (spec 2.1). */
export function toWireSeconds(ms: number): number {
  return Math.round(ms) / 1000;
}

/** A write entry's `timestamp` (spec 4.6-4.7: Unix seconds or ISO 8601) in integer Unix ms; `nowMs` when absent. */
export function writeTimestamp(entry: JsonObject, at: string, nowMs: number): number {
  const t = entry['timestamp'];
  if (t === undefined || t === null) return Math.round(nowMs);
  if (typeof t === 'string' && /^-/.test(t)) throw badRequest(`${at}.timestamp: expected Unix seconds or ISO 8601`);
  const ms = parseTime(`${at}.timestamp`, t, nowMs);
  if (!Number.isFinite(ms) || Math.abs(ms) > 8.64e15) throw badRequest(`${at}.timestamp: out of range`);
  return Math.round(ms);
}
