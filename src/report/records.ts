/**
 * JSON text of the records the agent writes (spec 4.6 states/write entries,
 * 4.7 measurements/write entries). Records are encoded once, when stamped, and
 * travel as text through the batcher, the outbox and the request body.
 * Timestamps are Unix seconds with millisecond precision (spec 2.1).
 *
 * Cheap per sample: a scan's records share one timestamp, whose text is made
 * once (from integers, not by printing a double); a channel name is encoded
 * once with its UTF-8 byte count, so the encoder knows each record's byte
 * count and the batcher need not scan the record for non-ASCII text
 * (`encodedByteLength`).
 */
import type { SampleValue } from '../agent/driver.js';
import { utf8Length } from '../utf8.js';

/** Unix ms -> the wire's decimal seconds (1767225600123 -> 1767225600.123). */
export function toWireSeconds(unixMs: number): number {
  return Math.round(unixMs) / 1000;
}

/** Text of the wire seconds of `unixMs`: the same as `String(toWireSeconds(unixMs))`, made once per scan. */
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
    text = String(toWireSeconds(unixMs));
  }
  lastMs = unixMs;
  lastSecondsText = text;
  return text;
}

/** A JSON-encoded channel name and how many more UTF-8 bytes than characters it has. */
interface EncodedName {
  json: string;
  extraBytes: number;
}

/** JSON-encoded channel names, bounded: a device has few channels, an application may invent names. */
const encodedNames = new Map<string, EncodedName>();
const maxEncodedNames = 512;

function encodeName(name: string): EncodedName {
  let encoded = encodedNames.get(name);
  if (encoded === undefined) {
    if (encodedNames.size >= maxEncodedNames) encodedNames.clear();
    const json = JSON.stringify(name);
    encoded = { json, extraBytes: utf8Length(json) - json.length };
    encodedNames.set(name, encoded);
  }
  return encoded;
}

/** The last record encoded and its UTF-8 byte count. */
let lastRecord = '';
let lastRecordBytes = 0;

function remember(record: string, extraBytes: number): string {
  lastRecord = record;
  lastRecordBytes = record.length + extraBytes;
  return record;
}

/**
 * UTF-8 byte count of `text` when it is the record this module encoded last
 * (the batcher adds each record right after it is encoded); -1 otherwise.
 */
export function encodedByteLength(text: string): number {
  return text === lastRecord ? lastRecordBytes : -1;
}

/** One `states/write` entry carrying a value. */
export function encodeStateValue(channel: string, value: SampleValue, unixMs: number): string {
  const name = encodeName(channel);
  const v = encodeValue(value);
  const record = `{"channel":${name.json},"value":${v},"timestamp":${wireSecondsText(unixMs)}}`;
  return remember(record, name.extraBytes + (typeof value === 'string' ? utf8Length(v) - v.length : 0));
}

/** One `states/write` entry carrying a negative POSIX error (only on `.reported`, spec 4.6 rule 2). */
export function encodeStateError(channel: string, errno: number, unixMs: number): string {
  const name = encodeName(channel);
  return remember(`{"channel":${name.json},"error":${errno},"timestamp":${wireSecondsText(unixMs)}}`, name.extraBytes);
}

/** One `measurements/write` entry (values of any shape: its byte count is left to the batcher). */
export function encodeMeasurement(metric: string, value: unknown, unixMs: number): string {
  return `{"metric":${JSON.stringify(metric)},"value":${encodeValue(value)},"timestamp":${wireSecondsText(unixMs)}}`;
}

/** JSON of a value; non-finite numbers (not JSON) become strings ("NaN", "Infinity"). */
function encodeValue(value: unknown): string {
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : `"${String(value)}"`;
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  return JSON.stringify(value) ?? 'null';
}
