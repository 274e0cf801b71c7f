/**
 * The outbox: closed batches of records waiting for the service, in order
 * (docs/agent.md, "Offline outbox"), kept RAM-first to spare the flash (docs/agent.md,
 * "Flash and power cuts"). While the service answers, batches go out from RAM
 * and the store is not written at all. Once a delivery fails, everything
 * queued is written to the store, and batches closed while offline are written
 * within `persistDelayMs` (coalesced per lane, so the store sees about one
 * write per lane per period, not one per batch); a clean stop writes the rest.
 * Persisted batches leave RAM (they are read back when sent) and are deleted
 * once delivered. The store side is a fixed ring of keys (outbox-ring.ts).
 *
 * Bounded in records and bytes. Overflow policy: drop the oldest batches,
 * counted in `dropped` (records). A batch is never larger than the bounds.
 */
import { AgentError, toAgentError } from '../errors.js';
import type { Clock, KeyValueStore, Logger, TimerHandle } from '../ports.js';
import { byteLength } from './batcher.js';
import { type Lane, type OutboxBatch, type OutboxOptions } from './outbox-options.js';
import { OutboxRing } from './outbox-ring.js';

interface Entry {
  seq: number;
  lane: Lane;
  count: number;
  bytes: number;
  /** The records while in RAM; undefined once persisted (read back from `key`). */
  json: string | undefined;
  /** The store key holding the batch, once persisted. */
  key: string | undefined;
}

export class Outbox {
  private readonly index: Entry[] = [];
  private readonly ring: OutboxRing;
  private nextSeq = 1;
  private offline = false;
  private timer: TimerHandle | undefined;
  private storeTrouble = false;
  /** Records queued, bytes queued, records dropped (overflow, or lost to store damage). */
  records = 0;
  bytes = 0;
  dropped = 0;

  constructor(
    store: KeyValueStore,
    readonly options: OutboxOptions,
    private readonly logger: Logger,
    private readonly clock: Clock,
  ) {
    const slots = options.storeSlots;
    if (!(options.maxRecords >= 1) || !(options.maxBytes >= 64) || !(slots >= 1 && slots <= 1000)) {
      throw new AgentError('config.invalid', 'outbox: maxRecords >= 1, maxBytes >= 64, storeSlots 1..1000 required');
    }
    this.ring = new OutboxRing(store, options.prefix, Math.floor(slots), logger);
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
      this.remove(oldest.seq);
      this.dropped += oldest.count;
      this.logger.log('warn', 'outbox full: dropped the oldest batch', {
        records: oldest.count,
        dropped: this.dropped,
      });
    }
    this.records += count;
    this.bytes += bytes;
    if (!this.coalesce(lane, json, count, bytes)) {
      this.index.push({ seq: this.nextSeq++, lane, count, bytes, json, key: undefined });
    }
    if (this.offline && this.timer === undefined) {
      this.timer = this.clock.setTimer(this.onPersistTimer, this.persistDelayMs());
    }
  }

  /** The oldest batch, or undefined when empty. */
  peek(): OutboxBatch | undefined {
    while (this.index.length > 0) {
      const entry = this.index[0]!;
      const json = entry.json ?? (entry.key === undefined ? undefined : this.ring.read(entry.key)?.json);
      if (json !== undefined) return { seq: entry.seq, lane: entry.lane, count: entry.count, json };
      this.dropped += entry.count; // vanished or damaged since written: logged by the ring
      this.remove(entry.seq);
    }
    return undefined;
  }

  /**
   * Rewrites a queued batch with the records left after a refusal was split
   * (src/report/refusal.ts); its place in the queue is kept. Unknown `seq`: ignored.
   */
  replace(batch: OutboxBatch, json: string, count: number): void {
    const entry = this.index.find((e) => e.seq === batch.seq);
    if (entry === undefined) return;
    if (count < 1) {
      this.remove(batch.seq);
      return;
    }
    const bytes = byteLength(json);
    if (entry.key !== undefined) this.ring.release(entry.key);
    entry.key = undefined;
    entry.json = json;
    this.records += count - entry.count;
    this.bytes += bytes - entry.bytes;
    entry.count = count;
    entry.bytes = bytes;
    if (this.offline) this.persist();
  }

  /** A delivery failed: write everything queued, and keep writing what comes until `deliveryOk`. */
  deliveryFailed(): void {
    this.offline = true;
    this.persist();
  }

  /** A delivery succeeded: new batches stay in RAM again. */
  deliveryOk(): void {
    this.offline = false;
    this.cancelTimer();
  }

  /** Writes every batch still only in RAM to the store (a clean stop, a failed delivery). */
  persist(): void {
    this.cancelTimer();
    for (const entry of this.index) {
      if (entry.key !== undefined || entry.json === undefined) continue;
      let key: string | undefined;
      try {
        key = this.ring.write(entry.seq, entry.lane, entry.count, entry.json);
      } catch (e) {
        this.trouble('outbox: store write failed; batches kept in RAM only', e);
        return;
      }
      if (key === undefined) {
        this.trouble('outbox: every store slot is taken; newer batches kept in RAM only', undefined);
        return;
      }
      entry.key = key;
      entry.json = undefined;
    }
    this.storeTrouble = false;
  }

  get batches(): number {
    return this.index.length;
  }

  /** Batches held in the store now. */
  get persisted(): number {
    return this.ring.used;
  }

  /** The write-behind delay: the base while the ring is at most half used, then doubling per eighth. */
  persistDelayMs(): number {
    const eighths = Math.floor((8 * this.ring.used) / this.options.storeSlots);
    return this.options.persistDelayMs * 2 ** Math.min(4, Math.max(0, eighths - 3));
  }

  private cancelTimer(): void {
    if (this.timer !== undefined) this.clock.clearTimer(this.timer);
    this.timer = undefined;
  }

  private readonly onPersistTimer = (): void => {
    this.timer = undefined;
    if (this.offline) this.persist();
  };

  /**
   * Joins a batch to the newest queued batch of its lane when that one is
   * still only in RAM and not at the head (the head may be in flight): fewer
   * requests after a backlog, fewer store writes offline. Order within a lane
   * is kept; the two lanes go to different endpoints.
   */
  private coalesce(lane: Lane, json: string, count: number, bytes: number): boolean {
    for (let i = this.index.length - 1; i >= 1; i--) {
      const entry = this.index[i]!;
      if (entry.lane !== lane) continue;
      if (entry.json === undefined || entry.key !== undefined) return false;
      if (entry.bytes + bytes - 1 > this.options.maxEntryBytes) return false;
      if (entry.count + count > this.options.maxEntryRecords) return false;
      entry.json = `${entry.json.slice(0, -1)},${json.slice(1)}`;
      entry.count += count;
      entry.bytes += bytes - 1;
      this.bytes -= 1;
      return true;
    }
    return false;
  }

  private trouble(message: string, error: unknown): void {
    if (this.storeTrouble) return;
    this.storeTrouble = true;
    const reason = error === undefined ? undefined : toAgentError(error).message;
    this.logger.log('warn', message, { persisted: this.ring.used, queued: this.index.length, reason });
  }

  /** Removes a delivered (or refused) batch; unknown sequence numbers are ignored. */
  remove(seq: number): void {
    const i = this.index.findIndex((e) => e.seq === seq);
    if (i < 0) return;
    const [entry] = this.index.splice(i, 1);
    this.records -= entry!.count;
    this.bytes -= entry!.bytes;
    if (entry!.key !== undefined) this.ring.release(entry!.key);
  }

  /** Rebuilds the queue from the store (after a restart); damage is logged and skipped, never fatal. */
  private load(): void {
    for (const batch of this.ring.load()) {
      const bytes = byteLength(batch.json);
      this.index.push({ seq: batch.seq, lane: batch.lane, count: batch.count, bytes, json: undefined, key: batch.key });
      this.records += batch.count;
      this.bytes += bytes;
      if (batch.seq >= this.nextSeq) this.nextSeq = batch.seq + 1;
    }
    if (this.index.length > 0) {
      this.logger.log('info', 'outbox restored', { batches: this.index.length, records: this.records });
    }
  }
}
