/**
 * JSON text of the records the agent writes (spec 4.6 states/write entries,
 * 4.7 measurements/write entries). Records are encoded once, when stamped, and
 * travel as text through the batcher, the outbox and the request body.
 * Timestamps are Unix seconds with millisecond precision (spec 2.1).
 */
import type { SampleValue } from '../agent/driver.js';

/** Unix ms -> the wire's decimal seconds (1767225600123 -> 1767225600.123). */
export function toWireSeconds(unixMs: number): number {
  return Math.round(unixMs) / 1000;
}

/** JSON-encoded channel names, bounded: a device has few channels, an application may invent names. */
const encodedNames = new Map<string, string>();
const maxEncodedNames = 512;

function encodeName(name: string): string {
  let encoded = encodedNames.get(name);
  if (encoded === undefined) {
    if (encodedNames.size >= maxEncodedNames) encodedNames.clear();
    encoded = JSON.stringify(name);
    encodedNames.set(name, encoded);
  }
  return encoded;
}

/** One `states/write` entry carrying a value. */
export function encodeStateValue(channel: string, value: SampleValue, unixMs: number): string {
  return `{"channel":${encodeName(channel)},"value":${encodeValue(value)},"timestamp":${toWireSeconds(unixMs)}}`;
}

/** One `states/write` entry carrying a negative POSIX error (only on `.reported`, spec 4.6 rule 2). */
export function encodeStateError(channel: string, errno: number, unixMs: number): string {
  return `{"channel":${encodeName(channel)},"error":${errno},"timestamp":${toWireSeconds(unixMs)}}`;
}

/** One `measurements/write` entry. */
export function encodeMeasurement(metric: string, value: unknown, unixMs: number): string {
  return `{"metric":${JSON.stringify(metric)},"value":${encodeValue(value)},"timestamp":${toWireSeconds(unixMs)}}`;
}

/** JSON of a value; non-finite numbers (not JSON) become strings ("NaN", "Infinity"). */
function encodeValue(value: unknown): string {
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : `"${String(value)}"`;
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  return JSON.stringify(value) ?? 'null';
}
