/**
 * JSON text of the records the agent writes (spec 4.6 states/write entries,
 * 4.7 measurements/write entries). Records are encoded once and
 * travel as text through the batcher, the outbox and the request body.
 * Timestamps are Unix seconds with millisecond precision (spec 2.1).
 *
 * Cheap per sample: a scan's records share one timestamp, whose text is made
 * once (from integers, not by printing a double); a name is encoded once; a
 * record is one template, so one string. A record held while the wall time is
 * unknown is encoded up to its timestamp and completed once the time is known.
 * The batcher counts a record's UTF-8 bytes (`byteLength`).
 */
import { StateSide } from '../wire.js';
import type { Lane } from './outbox-options.js';

/**
 * Text of the wire seconds of `unixMs` (1767225600123 -> "1767225600.123"): the same as
 * `String(Math.round(unixMs) / 1000)`, made from integers rather than by printing a double.
 */
export function wireSecondsText(unixMs: number): string {
  const ms = Math.round(unixMs);
  if (!(ms >= 0 && ms <= Number.MAX_SAFE_INTEGER)) return String(ms / 1000);
  const frac = ms % 1000; // printed as three digits without trailing zeros, as a double would be
  const whole = (ms - frac) / 1000;
  const digits = frac % 10 ? 3 : frac % 100 ? 2 : 1;
  return frac === 0 ? String(whole) : `${whole}.${String(1000 + frac).slice(1, 1 + digits)}`;
}

/** The end of a record stamped `unixMs`, `<seconds>}`: a scan's records share it, made once per scan. */
let lastMs = NaN;
let lastTail = '';
export function stampTail(unixMs: number): string {
  if (unixMs !== lastMs) {
    lastMs = unixMs;
    lastTail = wireSecondsText(unixMs) + '}';
  }
  return lastTail;
}

/**
 * The opening of each name's records per lane, `{"channel":"temp.reported"` or `{"metric":"gps"`,
 * made once, not per sample; bounded (a device has few channels, an application may invent metrics).
 */
let openings: Record<Lane, Map<string, string>> | undefined;

function opening(lane: Lane, name: string): string {
  // Made at first use, not when the module loads: a board's firmware preloads its module into flash,
  // where a Map made at load is read-only (docs/moddable.md, "Heap on an ESP32").
  const names = (openings ??= { s: new Map(), m: new Map() })[lane];
  let text = names.get(name);
  if (text === undefined) {
    if (names.size >= 512) names.clear();
    const json = JSON.stringify(lane === 's' ? name + StateSide.reported : name);
    names.set(name, (text = (lane === 's' ? '{"channel":' : '{"metric":') + json));
  }
  return text;
}

/**
 * One record, as one text: a `states/write` entry of channel `<name>.reported` carrying a value
 * (`ok`) or a negative POSIX error (`value` is the errno; only on `.reported`, spec 4.6 rule 2),
 * `{"channel":"temp.reported","value":21.5,"timestamp":1767225600.5}`, or a `measurements/write`
 * entry (lane `m`) of metric `name`, up to `"timestamp":`: `stampTail(unixMs)` completes it (at once,
 * or once the time is known for a held record).
 * Few pieces, each made once where it can be, joined with `+`: XS joins a template's pieces one by one,
 * the empty text between two substitutions too, each join a new string (`bench:xs`, encode and batch per
 * sample: 698 chunk bytes with the one template of seven pieces, 464 with these four joins).
 */
export function encodeRecord(lane: Lane, name: string, ok: boolean, value: unknown): string {
  return opening(lane, name) + (ok ? ',"value":' : ',"error":') + encodeValue(value) + ',"timestamp":';
}

/** JSON of a value; non-finite numbers (not JSON) become strings ("NaN", "Infinity"). */
function encodeValue(value: unknown): string {
  if (Number.isFinite(value) || typeof value === 'boolean') return String(value);
  if (typeof value === 'number') return `"${value}"`;
  return JSON.stringify(value) ?? 'null';
}
