/**
 * JSON text of the records the agent writes (spec 4.6 states/write entries,
 * 4.7 measurements/write entries). Records are encoded once, when stamped, and
 * travel as text through the batcher, the outbox and the request body.
 * Timestamps are Unix seconds with millisecond precision (spec 2.1).
 *
 * Cheap per sample: a scan's records share one timestamp, whose text is made
 * once (from integers, not by printing a double); a channel name is encoded
 * once. The batcher counts a record's UTF-8 bytes (`byteLength`).
 */
import type { SampleValue } from '../agent/driver.js';

/**
 * Text of the wire seconds of `unixMs` (1767225600123 -> "1767225600.123"): the same as
 * `String(Math.round(unixMs) / 1000)`, made once per scan.
 */
let lastMs = NaN;
let lastSecondsText = '';
export function wireSecondsText(unixMs: number): string {
  if (unixMs === lastMs) return lastSecondsText;
  const ms = Math.round(unixMs);
  let text: string;
  if (ms >= 0 && ms <= Number.MAX_SAFE_INTEGER) {
    const whole = Math.floor(ms / 1000);
    let frac = ms - whole * 1000; // 0..999, printed without trailing zeros as a double would be
    if (frac === 0) text = String(whole);
    else {
      let digits = frac < 10 ? '00' : frac < 100 ? '0' : '';
      while (frac % 10 === 0) frac /= 10;
      digits += String(frac);
      text = `${whole}.${digits}`;
    }
  } else {
    text = String(Math.round(unixMs) / 1000);
  }
  lastMs = unixMs;
  lastSecondsText = text;
  return text;
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
