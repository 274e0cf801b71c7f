/**
 * The narrow interface between the real-time hub connection (src/signalr) and
 * the agent: desired states in, properties in. Implemented by the agent
 * (src/agent), driven by the hub glue (decisions.md section 5). Also the reader
 * of the answer of `states/read/last?channels=*.desired` (spec 4.6, 2.6) for the
 * resync after every hub (re)connect: names arrive as `<product_uid>:<key>.desired`;
 * records without a value or with a bad shape are skipped and counted (`readDesired`).
 */
import { asArray, isObject } from '../reader.js';
import { StateSide } from '../wire.js';
import type { Value } from './driver.js';

/** One `.desired` record addressed to this device. */
export interface DesiredRecord {
  /** Channel external key, without `.desired` (location sub-channels keep their field: `gps.lat`). */
  key: string;
  value: Value;
  /** Unix milliseconds of the record. */
  timestampMs: number;
}

export interface DesiredStateSink {
  /**
   * Applies one desired record: ignored when older than the last one applied to
   * that channel; otherwise validated, written to the output, and echoed on
   * `<key>.reported` (the value read back, or an error). Never rejects.
   */
  applyDesired(record: DesiredRecord): Promise<void>;
  /**
   * Reads `states/read/last?device=<key>&channels=*.desired` and applies what was
   * missed. Called on every hub connect and reconnect. Rejects with AgentError
   * when the read fails (the caller logs and retries on the next connect).
   */
  resyncDesired(): Promise<void>;
  /** Merges changed properties (a `properties` Notify or a SetProperties result). */
  updateProperties(values: Readonly<Record<string, Value>>, replace: boolean): void;
  /**
   * The hub connected again after a disconnect (not called for the first connect):
   * the configuration may have changed meanwhile. Never throws.
   */
  hubReconnected?(): void;
}

/**
 * One `.desired` record from a State record of the wire (a `states/read/last` entry,
 * a Notify's state): `<product_uid>:<key>.desired` gives `<key>`, the value must be a
 * boolean, number or string and the timestamp finite Unix seconds. Undefined for any
 * other channel or shape. The one reader of `.desired` records (the hub's too).
 */
export function readDesired(raw: unknown): DesiredRecord | undefined {
  const { channel, value, timestamp } = isObject(raw) ? raw : {};
  const key =
    typeof channel === 'string' && channel.endsWith(StateSide.desired)
      ? channel.slice(channel.indexOf(':') + 1, -StateSide.desired.length)
      : '';
  return key !== '' && ['boolean', 'number', 'string'].includes(typeof value) && Number.isFinite(timestamp)
    ? { key, value: value as Value, timestampMs: Math.round((timestamp as number) * 1000) }
    : undefined;
}

/**
 * The `.desired` records of a `states/read/last` answer and how many were skipped. Not
 * sorted: the answer holds one record per channel, and each key keeps its own watermark.
 */
export function parseDesiredRecords(body: unknown): { records: DesiredRecord[]; skipped: number } {
  const list = asArray(body, 'states/read/last');
  const records = list.map(readDesired).filter((r): r is DesiredRecord => r !== undefined);
  return { records, skipped: list.length - records.length };
}
