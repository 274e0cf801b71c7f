/**
 * Pieces shared by `states/write` and `measurements/write` (spec 4.6-4.7): the
 * entry array and the entry timestamp (number Unix seconds or ISO 8601; default
 * the server's current time).
 */
import { isObject, type WireObject } from '../../../src/config/fields.js';
import { badRequest } from '../http/problem.js';
import { parseTime } from '../time.js';

/** Upper bound on entries in one write request (the body is also bounded at 1 MiB). */
export const maxEntriesPerWrite = 10_000;

export function asEntries(value: unknown, field: string): WireObject[] {
  if (!Array.isArray(value)) throw badRequest(`${field}: expected an array`);
  if (value.length > maxEntriesPerWrite)
    throw badRequest(`${field}: at most ${maxEntriesPerWrite} entries per request`);
  return value.map((e, i) => {
    if (!isObject(e)) throw badRequest(`${field}[${i}]: expected an object`);
    return e;
  });
}

/** The entry's timestamp in integer Unix ms; `nowMs` when absent. */
export function writeTimestamp(entry: WireObject, at: string, nowMs: number): number {
  const t = entry['timestamp'];
  if (t === undefined || t === null) return Math.round(nowMs);
  if (typeof t === 'string' && /^-/.test(t)) throw badRequest(`${at}.timestamp: expected Unix seconds or ISO 8601`);
  const ms = parseTime(`${at}.timestamp`, t, nowMs);
  if (!Number.isFinite(ms) || Math.abs(ms) > 8.64e15) throw badRequest(`${at}.timestamp: out of range`);
  return Math.round(ms);
}
