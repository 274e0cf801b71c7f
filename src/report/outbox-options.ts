/**
 * What the outbox (outbox.ts) is given and gives: its two lanes (states and
 * measurements), its options with their defaults, the batch it hands to the
 * sender, and a batch's store entry.
 */
export type Lane = 's' | 'm';

export interface OutboxOptions {
  /** Most records queued. Default 20000. */
  maxRecords: number;
  /** Most bytes (JSON text) queued. Default 2 MiB. */
  maxBytes: number;
  /** Store key prefix. Default `outbox/`. */
  prefix: string;
  /** Store keys the outbox may use (the ring), 1..1000. Default 256. */
  storeSlots: number;
  /**
   * Offline, longest a closed batch stays in RAM only before it is written, ms,
   * while at most half the ring is used; doubled for each further eighth of the
   * ring in use (up to 16x), so that a long outage fills the ring slowly. Default 5000.
   */
  persistDelayMs: number;
  /** Largest batch made by joining queued batches of one lane: JSON bytes (default 64 KiB) and records (500). */
  maxEntryBytes: number;
  maxEntryRecords: number;
}

export const defaultOutboxOptions: OutboxOptions = {
  maxRecords: 20000,
  maxBytes: 2 * 1024 * 1024,
  prefix: 'outbox/',
  storeSlots: 256,
  persistDelayMs: 5000,
  maxEntryBytes: 64 * 1024,
  maxEntryRecords: 500,
};

/** One queued batch. `json` is the array of records, e.g. `[{"channel":...},...]`. */
export interface OutboxBatch {
  seq: number;
  lane: Lane;
  count: number;
  json: string;
}

/**
 * A batch's store entry, `<lane><count>@<seq>|<json array>`: the sequence
 * number gives the queue order after a restart (the ring wraps).
 */
export function encodeEntry(seq: number, lane: Lane, count: number, json: string): string {
  return `${lane}${count}@${seq}|${json}`;
}

const entryHeader = /^([sm])(\d{1,9})@(\d{1,15})\|/;

/** The batch of an entry; undefined when its header or record count does not match; throws when not JSON. */
export function decodeEntry(text: string): OutboxBatch | undefined {
  const m = entryHeader.exec(text);
  if (m === null) return undefined;
  const json = text.slice(m[0].length);
  const count = Number(m[2]);
  const seq = Number(m[3]);
  const records: unknown = JSON.parse(json);
  if (!Array.isArray(records) || records.length !== count || !(count >= 1 && seq >= 1)) return undefined;
  return { seq, lane: m[1] as Lane, count, json };
}
