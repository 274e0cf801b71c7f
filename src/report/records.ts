/**
 * JSON text of the records the agent writes (spec 4.6 states/write entries,
 * 4.7 measurements/write entries). Records are encoded once and
 * travel as text through the batcher, the outbox and the request body.
 * Timestamps are Unix seconds with millisecond precision (spec 2.1).
 *
 * Cheap per sample: a scan's records share one timestamp, whose text is made
 * once (from integers, not by printing a double); a name is encoded once. A
 * record is encoded up to its timestamp when reported (`recordHead`) and
 * stamped once the wall time is known (`stamp`). The batcher counts a
 * record's UTF-8 bytes (`byteLength`).
 */
import { StateSide } from '../wire.js';
import type { Lane } from './outbox-options.js';

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
    const frac = ms % 1000; // printed as three digits without trailing zeros, as a double would be
    const whole = (ms - frac) / 1000;
    const digits = frac % 10 ? 3 : frac % 100 ? 2 : 1;
    text = frac === 0 ? String(whole) : `${whole}.${String(1000 + frac).slice(1, 1 + digits)}`;
  } else {
    text = String(ms / 1000);
  }
  lastMs = unixMs;
  lastSecondsText = text;
  return text;
}

/**
 * JSON-encoded names per lane, bounded (a device has few channels, an application may invent
 * metrics): a state's is that of `<name>.reported`, made once, not per sample.
 */
const encodedNames: Record<Lane, Map<string, string>> = { s: new Map(), m: new Map() };

function encodeName(lane: Lane, name: string): string {
  const names = encodedNames[lane];
  let json = names.get(name);
  if (json === undefined) {
    if (names.size >= 512) names.clear();
    names.set(name, (json = JSON.stringify(lane === 's' ? name + StateSide.reported : name)));
  }
  return json;
}

/**
 * A record up to its timestamp, which `stamp` adds: a `states/write` entry of channel
 * `<name>.reported` carrying a value (`ok`) or a negative POSIX error (`value` is the errno;
 * only on `.reported`, spec 4.6 rule 2), `{"channel":"temp.reported","value":21.5,"timestamp":`,
 * or a `measurements/write` entry (lane `m`) of metric `name`, `{"metric":"gps","value":{...},"timestamp":`.
 */
export function recordHead(lane: Lane, name: string, ok: boolean, value: unknown): string {
  return `{"${lane === 's' ? 'channel' : 'metric'}":${encodeName(lane, name)},"${ok ? 'value' : 'error'}":${encodeValue(value)},"timestamp":`;
}

/** The record of `head` stamped with `unixMs`. */
export function stamp(head: string, unixMs: number): string {
  return `${head}${wireSecondsText(unixMs)}}`;
}

/** JSON of a value; non-finite numbers (not JSON) become strings ("NaN", "Infinity"). */
function encodeValue(value: unknown): string {
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : `"${String(value)}"`;
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  return JSON.stringify(value) ?? 'null';
}
