/**
 * JSON text of the records the agent writes (spec 4.6 states/write entries,
 * 4.7 measurements/write entries). Records are encoded once, when stamped, and
 * travel as text through the batcher, the outbox and the request body.
 * Timestamps are Unix seconds with millisecond precision (spec 2.1).
 *
 * Cheap per sample: a scan's records share one timestamp, whose text is made
 * once; a channel name is encoded
 * once with its UTF-8 byte count, so the encoder knows each record's byte
 * count and the batcher need not scan the record for non-ASCII text
 * (`encodedByteLength`).
 */
import type { SampleValue } from '../agent/driver.js';

/** Unix ms -> the wire's decimal seconds (1767225600123 -> 1767225600.123). */
export function toWireSeconds(unixMs: number): number {
  return Math.round(unixMs) / 1000;
}

/** Text of the wire seconds of `unixMs`, made once per scan (a scan's records share one timestamp). */
let lastMs = NaN;
let lastSecondsText = '';
export function wireSecondsText(unixMs: number): string {
  if (unixMs !== lastMs) {
    lastMs = unixMs;
    lastSecondsText = String(toWireSeconds(unixMs));
  }
  return lastSecondsText;
}

/** JSON-encoded channel names, bounded: a device has few channels, an application may invent names. */
const encodedNames = new Map<string, string>();

function encodeName(name: string): string {
  let json = encodedNames.get(name);
  if (json === undefined) {
    if (encodedNames.size >= 512) encodedNames.clear();
    encodedNames.set(name, (json = JSON.stringify(name)));
  }
  return json;
}

/** One `states/write` entry carrying a value. */
export function encodeStateValue(channel: string, value: SampleValue, unixMs: number): string {
  return `{"channel":${encodeName(channel)},"value":${encodeValue(value)},"timestamp":${wireSecondsText(unixMs)}}`;
}

/** One `states/write` entry carrying a negative POSIX error (only on `.reported`, spec 4.6 rule 2). */
export function encodeStateError(channel: string, errno: number, unixMs: number): string {
  return `{"channel":${encodeName(channel)},"error":${errno},"timestamp":${wireSecondsText(unixMs)}}`;
}

/** One `measurements/write` entry. */
export function encodeMeasurement(metric: string, value: unknown, unixMs: number): string {
  return `{"metric":${JSON.stringify(metric)},"value":${encodeValue(value)},"timestamp":${wireSecondsText(unixMs)}}`;
}

/** JSON of a value; non-finite numbers (not JSON) become strings ("NaN", "Infinity"). */
function encodeValue(value: unknown): string {
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : `"${String(value)}"`;
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  return JSON.stringify(value) ?? 'null';
}
