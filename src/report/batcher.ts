/**
 * Collects encoded records into batches so that one HTTP request carries many
 * (docs/agent.md, "Reporting"): a lane (states or measurements) closes when it holds
 * `maxRecords`, when its JSON would pass `maxBytes`, or `maxAgeMs` after its
 * first record. A closed batch goes to `onBatch` (the outbox).
 */
import type { Clock, ReusableTimer } from '../ports.js';
import { utf8Length } from '../utf8.js';
import type { Lane } from './outbox-options.js';

// A code unit above 0x7f. Not `[^\x00-\x7f]`: XS reads `\x00` in a class as the end of the pattern, so
// that class matched every text there and every record was counted char by char (146 slots a record).
const nonAscii = /[\u0080-\uffff]/;

/** Whether `text` is all ASCII (one native scan). */
export function isAscii(text: string): boolean {
  return !nonAscii.test(text);
}

/** UTF-8 bytes of `text`: its length when ASCII, else counted. */
export function byteLength(text: string): number {
  return isAscii(text) ? text.length : utf8Length(text);
}

export interface BatchOptions {
  /** Records per batch. Default 500. */
  maxRecords: number;
  /** JSON bytes per batch. Default 64 KiB (the service takes up to 1 MiB, decisions 6). */
  maxBytes: number;
  /** Longest a record waits for its batch to close, ms. Default 1000. */
  maxAgeMs: number;
  /**
   * Whether a prompt record (a desired echo) closes its batch at once. Default
   * true; false makes it wait like any record (bench/field.ts measures that as its peer).
   */
  prompt?: boolean;
}

export const defaultBatchOptions: BatchOptions = { maxRecords: 500, maxBytes: 64 * 1024, maxAgeMs: 1000, prompt: true };

/** A lane's open batch: its records and their JSON bytes (2: the brackets, plus a comma per record). */
interface LaneBuffer {
  readonly parts: string[];
  bytes: number;
}

export class Batcher {
  readonly #lanes: Record<Lane, LaneBuffer> = { s: { parts: [], bytes: 2 }, m: { parts: [], bytes: 2 } };
  /** The age timer (one, re-armed: `flush` when it fires), and whether it is armed. */
  readonly #timer: ReusableTimer;
  #armed = false;
  readonly #onBatch: (lane: Lane, json: string, count: number, bytes: number) => void;
  readonly #options: BatchOptions;

  constructor(
    clock: Clock,
    options: BatchOptions,
    onBatch: (lane: Lane, json: string, count: number, bytes: number) => void,
  ) {
    this.#options = options;
    this.#timer = clock.timer(() => this.flush());
    this.#onBatch = onBatch;
  }

  /**
   * Adds one encoded record to its lane. `prompt` (a record that answers a
   * user's action, such as a desired echo) closes the lane at once, with the
   * records before it, instead of waiting for the batch timer.
   */
  add(lane: Lane, record: string, prompt?: boolean): void {
    const options = this.#options;
    const buffer = this.#lanes[lane];
    const size = byteLength(record) + 1; // and its comma
    if (buffer.parts.length > 0 && buffer.bytes + size > options.maxBytes) this.#close(lane);
    buffer.parts.push(record);
    buffer.bytes += size;
    if (
      (prompt && options.prompt !== false) ||
      buffer.parts.length >= options.maxRecords ||
      buffer.bytes >= options.maxBytes
    ) {
      this.#close(lane);
    }
    // Records wait here unless this lane just closed; while the other lane holds any, the timer is armed.
    if (!this.#armed && buffer.parts.length > 0) {
      this.#armed = true;
      this.#timer.schedule(options.maxAgeMs);
    }
  }

  /** Closes both lanes now. */
  flush(): void {
    this.#armed = false;
    this.#timer.unschedule();
    this.#close('s');
    this.#close('m');
  }

  #close(lane: Lane): void {
    const buffer = this.#lanes[lane];
    const count = buffer.parts.length;
    if (count === 0) return;
    const json = `[${buffer.parts.join(',')}]`;
    const bytes = buffer.bytes - 1; // the last record has no comma
    buffer.parts.length = 0;
    buffer.bytes = 2;
    this.#onBatch(lane, json, count, bytes);
  }
}
