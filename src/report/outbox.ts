/**
 * The offline outbox: closed batches of records waiting for the service, in
 * order, persisted through the KeyValueStore so they survive a restart
 * (issue 2, "Offline outbox"). One store entry per batch (`<prefix><seq>`,
 * zero-padded so the store's key order is the queue order), holding the lane
 * (`s` states, `m` measurements), the record count and the JSON array text.
 *
 * Bounded in records and bytes. Overflow policy: drop the oldest batches,
 * counted in `dropped` (records). A batch is never larger than the bounds
 * (the batcher's limits are checked against them).
 */
import { AgentError } from '../errors.js';
import type { KeyValueStore, Logger } from '../ports.js';
import { byteLength } from './batcher.js';

export type Lane = 's' | 'm';

export interface OutboxOptions {
  /** Most records queued. Default 20000. */
  maxRecords: number;
  /** Most bytes (JSON text) queued. Default 2 MiB. */
  maxBytes: number;
  /** Store key prefix. Default `outbox/`. */
  prefix: string;
}

export const defaultOutboxOptions: OutboxOptions = { maxRecords: 20000, maxBytes: 2 * 1024 * 1024, prefix: 'outbox/' };

/** One queued batch. `json` is the array of records, e.g. `[{"channel":...},...]`. */
export interface OutboxBatch {
  seq: number;
  lane: Lane;
  count: number;
  json: string;
}

interface Entry {
  seq: number;
  count: number;
  bytes: number;
}

const seqDigits = 12;

export class Outbox {
  private readonly index: Entry[] = [];
  private nextSeq = 1;
  /** Records queued, bytes queued, records dropped by the overflow policy. */
  records = 0;
  bytes = 0;
  dropped = 0;

  constructor(
    private readonly store: KeyValueStore,
    readonly options: OutboxOptions,
    private readonly logger: Logger,
  ) {
    if (!(options.maxRecords >= 1) || !(options.maxBytes >= 64)) {
      throw new AgentError('config.invalid', 'outbox: maxRecords >= 1 and maxBytes >= 64 required');
    }
    this.load();
  }

  /**
   * Appends a closed batch; drops the oldest batches first when the bounds would
   * be exceeded. `bytes` is the UTF-8 size of `json` when the caller knows it.
   */
  append(lane: Lane, json: string, count: number, bytes = byteLength(json)): void {
    if (count > this.options.maxRecords || bytes > this.options.maxBytes) {
      throw new AgentError('too-large', `outbox: a batch of ${count} records / ${bytes} bytes exceeds the bounds`);
    }
    while (
      this.index.length > 0 &&
      (this.records + count > this.options.maxRecords || this.bytes + bytes > this.options.maxBytes)
    ) {
      const oldest = this.index[0]!;
      this.removeEntry(oldest.seq);
      this.dropped += oldest.count;
      this.logger.log('warn', 'outbox full: dropped the oldest batch', {
        records: oldest.count,
        dropped: this.dropped,
      });
    }
    const seq = this.nextSeq++;
    this.store.set(this.keyOf(seq), `${lane}${count}|${json}`);
    this.index.push({ seq, count, bytes });
    this.records += count;
    this.bytes += bytes;
  }

  /** The oldest batch, or undefined when empty. */
  peek(): OutboxBatch | undefined {
    while (this.index.length > 0) {
      const entry = this.index[0]!;
      const batch = this.read(entry.seq);
      if (batch !== undefined) return batch;
      this.removeEntry(entry.seq); // vanished or corrupt: nothing to send
    }
    return undefined;
  }

  /** Removes a delivered (or refused) batch; unknown sequence numbers are ignored. */
  remove(seq: number): void {
    this.removeEntry(seq);
  }

  /**
   * Rewrites a queued batch with the records left after a refusal was split
   * (src/report/refusal.ts); its place in the queue is kept. Unknown `seq`: ignored.
   */
  replace(batch: OutboxBatch, json: string, count: number): void {
    const entry = this.index.find((e) => e.seq === batch.seq);
    if (entry === undefined) return;
    if (count < 1) {
      this.removeEntry(batch.seq);
      return;
    }
    const bytes = byteLength(json);
    this.store.set(this.keyOf(batch.seq), `${batch.lane}${count}|${json}`);
    this.records += count - entry.count;
    this.bytes += bytes - entry.bytes;
    entry.count = count;
    entry.bytes = bytes;
  }

  get batches(): number {
    return this.index.length;
  }

  private keyOf(seq: number): string {
    return this.options.prefix + String(seq).padStart(seqDigits, '0');
  }

  private removeEntry(seq: number): void {
    const i = this.index.findIndex((e) => e.seq === seq);
    if (i < 0) return;
    const [entry] = this.index.splice(i, 1);
    this.records -= entry!.count;
    this.bytes -= entry!.bytes;
    this.store.delete(this.keyOf(seq));
  }

  private read(seq: number): OutboxBatch | undefined {
    const text = this.store.get(this.keyOf(seq));
    if (text === undefined) return undefined;
    const bar = text.indexOf('|');
    const lane = text.charAt(0);
    const count = Number(text.slice(1, bar));
    if (bar < 2 || (lane !== 's' && lane !== 'm') || !(count >= 1)) {
      this.logger.log('error', 'outbox: corrupt batch discarded', { seq });
      return undefined;
    }
    return { seq, lane, count, json: text.slice(bar + 1) };
  }

  /** Rebuilds the index from the store (after a restart). */
  private load(): void {
    for (const key of this.store.keys(this.options.prefix)) {
      const seq = Number(key.slice(this.options.prefix.length));
      if (!Number.isInteger(seq) || seq < 1) continue;
      const batch = this.read(seq);
      if (batch === undefined) {
        this.store.delete(key);
        continue;
      }
      const bytes = byteLength(batch.json);
      this.index.push({ seq, count: batch.count, bytes });
      this.records += batch.count;
      this.bytes += bytes;
      if (seq >= this.nextSeq) this.nextSeq = seq + 1;
    }
    this.index.sort((a, b) => a.seq - b.seq);
    if (this.index.length > 0)
      this.logger.log('info', 'outbox restored', { batches: this.index.length, records: this.records });
  }
}
