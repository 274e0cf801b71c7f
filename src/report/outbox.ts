/**
 * The outbox: closed batches waiting for the service, in order (docs/agent.md, "Offline outbox"),
 * RAM-first to spare the flash ("Flash and power cuts"): online, the store is not written at all;
 * once a delivery fails, everything queued is written, and batches closed offline are written
 * within `persistDelayMs` (coalesced per lane); a clean stop writes the rest. Persisted batches
 * leave RAM (read back when sent) and are deleted once delivered. The store side is a fixed ring
 * of keys, `<prefix>r000` .. `<prefix>r<slots-1>` (entries: outbox-options.ts). An entry that
 * cannot be read or parsed is counted in `damaged`, logged once per boot and removed; a slot
 * whose entry cannot be removed is not used again this run; other keys under the prefix are left
 * alone. Bounded in records and bytes: the oldest batches are dropped first (`dropped`, records).
 */
import { AgentError, info, logFailure, messageOf, warn } from '../errors.js';
import type { Clock, KeyValueStore, Logger, ReusableTimer } from '../ports.js';
import { byteLength } from './batcher.js';
import { decodeEntry, encodeEntry, type Lane, type OutboxBatch, type OutboxOptions } from './outbox-options.js';

/** A queued batch: `json` while in RAM, else in ring `slot` (-1: RAM only). */
interface Entry extends Omit<OutboxBatch, 'json'> {
  bytes: number;
  json: string | undefined;
  slot: number;
}

export class Outbox {
  readonly #index: Entry[] = [];
  /**
   * Per ring slot: 1 when it holds an entry (or one that could not be removed). Bytes, not an array of
   * booleans: 256 slots take 256 B, where an array's items took 4 KB of a board's chunk heap for good.
   */
  readonly #taken: Uint8Array;
  readonly #store: KeyValueStore;
  readonly #logger: Logger;
  /** The write-behind timer (one, re-armed: `persist` when it fires), and whether it is armed. */
  readonly #timer: ReusableTimer;
  #armed = false;
  #nextSeq = 1;
  #offline = false;
  #storeTrouble = false;
  /** Records queued, bytes queued, records dropped (overflow, or lost to store damage). */
  records = 0;
  bytes = 0;
  dropped = 0;
  /** Store entries removed as damaged (unreadable or not parsing). */
  damaged = 0;

  readonly #options: OutboxOptions;

  constructor(store: KeyValueStore, options: OutboxOptions, logger: Logger, clock: Clock) {
    this.#options = options;
    const slots = options.storeSlots; // key names hold three digits
    if (!(slots >= 1 && slots <= 1000)) throw new AgentError('config.invalid', `outbox: storeSlots ${slots}`);
    this.#store = store;
    this.#logger = logger;
    this.#timer = clock.timer(() => this.persist());
    this.#taken = new Uint8Array(Math.floor(slots));
    this.#load();
  }

  /** Appends a closed batch (`bytes`: its UTF-8 size), dropping the oldest first when over the bounds. */
  append(lane: Lane, json: string, count: number, bytes = byteLength(json)): void {
    const { maxRecords, maxBytes } = this.#options;
    if (count > maxRecords || bytes > maxBytes) throw new AgentError('too-large', `outbox: batch ${count}/${bytes} B`);
    while (this.#index.length > 0 && (this.records + count > maxRecords || this.bytes + bytes > maxBytes)) {
      const records = this.#dropOldest();
      warn(this.#logger, 'outbox: full, oldest dropped', { records, dropped: this.dropped });
    }
    this.#tally(count, bytes);
    if (!this.#coalesce(lane, json, count, bytes)) {
      this.#index.push({ seq: this.#nextSeq++, lane, count, bytes, json, slot: -1 });
    }
    if (this.#offline && !this.#armed) {
      this.#armed = true;
      this.#timer.schedule(this.persistDelayMs());
    }
  }

  /** The oldest batch, or undefined when empty. */
  peek(): OutboxBatch | undefined {
    while (this.#index.length > 0) {
      const entry = this.#index[0]!;
      const json = entry.json ?? this.#read(entry.slot)?.json;
      if (json !== undefined) return { seq: entry.seq, lane: entry.lane, count: entry.count, json };
      this.#dropOldest(); // vanished or damaged since written
    }
    return undefined;
  }

  /** Removes the oldest batch, its records counted as dropped; returns how many. */
  #dropOldest(): number {
    const { seq, count } = this.#index[0]!;
    this.remove(seq);
    this.dropped += count;
    return count;
  }

  /** Rewrites a queued batch with the records (JSON texts) left after a refused write, in its place. */
  replace(batch: OutboxBatch, records: readonly string[]): void {
    const entry = this.#index.find((e) => e.seq === batch.seq);
    const count = records.length;
    if (entry === undefined) return;
    if (count < 1) return this.remove(batch.seq);
    const json = `[${records.join(',')}]`;
    const bytes = byteLength(json);
    this.#release(entry.slot);
    this.#tally(count - entry.count, bytes - entry.bytes);
    entry.slot = -1;
    entry.json = json;
    entry.count = count;
    entry.bytes = bytes;
    if (this.#offline) this.persist();
  }

  /** A delivery failed: write everything queued, and keep writing what comes until `deliveryOk`. */
  deliveryFailed(): void {
    this.#offline = true;
    this.persist();
  }

  /** A delivery succeeded: new batches stay in RAM again. */
  deliveryOk(): void {
    this.#offline = false;
    this.#cancelTimer();
  }

  /** Writes every batch still only in RAM into the lowest free slots (a clean stop, a failed delivery). */
  persist(): void {
    this.#cancelTimer();
    for (const entry of this.#index) {
      if (entry.json === undefined) continue;
      const slot = this.#taken.indexOf(0);
      if (slot < 0) return this.#trouble('outbox: store full, RAM only');
      try {
        this.#store.set(this.#key(slot), encodeEntry(entry.seq, entry.lane, entry.count, entry.json));
      } catch (e) {
        return this.#trouble('outbox: store write failed, RAM only', messageOf(e));
      }
      this.#taken[slot] = 1;
      entry.slot = slot;
      entry.json = undefined;
    }
    this.#storeTrouble = false;
  }

  /** Ring slots in use now. */
  get persisted(): number {
    let n = 0;
    for (let i = 0; i < this.#taken.length; i++) n += this.#taken[i]!;
    return n;
  }

  /** The write-behind delay: the base while the ring is at most half used, then doubling per eighth. */
  persistDelayMs(): number {
    const eighths = Math.floor((8 * this.persisted) / this.#taken.length);
    return this.#options.persistDelayMs * 2 ** Math.min(4, Math.max(0, eighths - 3));
  }

  /** Removes a delivered (or refused) batch; unknown sequence numbers are ignored. */
  remove(seq: number): void {
    const i = this.#index.findIndex((e) => e.seq === seq);
    if (i < 0) return;
    const entry = this.#index.splice(i, 1)[0]!;
    this.#tally(-entry.count, -entry.bytes);
    this.#release(entry.slot);
  }

  /** Adds to the records and bytes queued (negative: takes off). */
  #tally(records: number, bytes: number): void {
    this.records += records;
    this.bytes += bytes;
  }

  /** The timer is armed only while offline (deliveryOk disarms it); persist disarms it (fired or not). */
  #cancelTimer(): void {
    this.#armed = false;
    this.#timer.unschedule();
  }

  /** Joins a batch to its lane's newest RAM batch, not the head (in flight), within the entry bounds. */
  #coalesce(lane: Lane, json: string, count: number, bytes: number): boolean {
    for (let i = this.#index.length - 1; i >= 1; i--) {
      const entry = this.#index[i]!;
      if (entry.lane !== lane) continue;
      const options = this.#options;
      if (entry.json === undefined || entry.bytes + bytes - 1 > options.maxEntryBytes) return false;
      if (entry.count + count > options.maxEntryRecords) return false;
      entry.json = `${entry.json.slice(0, -1)},${json.slice(1)}`;
      entry.count += count;
      entry.bytes += bytes - 1;
      this.bytes -= 1;
      return true;
    }
    return false;
  }

  /** Logs store trouble once until a persist succeeds again. */
  #trouble(message: string, reason?: string): void {
    if (this.#storeTrouble) return;
    this.#storeTrouble = true;
    warn(this.#logger, message, { persisted: this.persisted, reason });
  }

  #key(slot: number): string {
    return `${this.#options.prefix}r${String(slot).padStart(3, '0')}`;
  }

  /** Deletes a slot's entry and frees the slot (kept taken when the delete fails). */
  #release(slot: number, logged = true): void {
    if (slot < 0) return; // RAM only
    let taken = false;
    try {
      this.#store.delete(this.#key(slot));
    } catch (e) {
      taken = true;
      if (logged) logFailure(this.#logger, 'warn', 'outbox: store delete failed', e, { slot });
    }
    if (slot < this.#taken.length) this.#taken[slot] = taken ? 1 : 0;
  }

  /** A slot's batch; undefined when it vanished or is damaged (then counted, removed, logged once per boot). */
  #read(slot: number): OutboxBatch | undefined {
    const key = this.#key(slot);
    let reason = 'garbled';
    try {
      const text = this.#store.get(key);
      if (text === undefined) return undefined;
      const batch = decodeEntry(text);
      if (batch !== undefined) return batch;
    } catch (e) {
      reason = messageOf(e);
    }
    if (this.damaged++ === 0) warn(this.#logger, 'outbox: damaged entry removed', { key, reason });
    this.#release(slot, false);
    return undefined;
  }

  /** Rebuilds the queue from the ring (after a restart). */
  #load(): void {
    const prefix = this.#options.prefix;
    for (const key of this.#store.keys(prefix)) {
      // Only the ring's own keys (`<prefix>r` and three digits): the slot number's key must be this key.
      const slot = Number(key.slice(prefix.length + 1));
      if (!(slot < 1000) || key !== this.#key(slot)) continue;
      const batch = this.#read(slot);
      if (batch === undefined) continue;
      if (slot < this.#taken.length) this.#taken[slot] = 1;
      const bytes = byteLength(batch.json);
      this.#index.push({ ...batch, bytes, json: undefined, slot });
      this.#tally(batch.count, bytes);
      if (batch.seq >= this.#nextSeq) this.#nextSeq = batch.seq + 1;
    }
    this.#index.sort((a, b) => a.seq - b.seq);
    if (this.#index.length > 0) {
      info(this.#logger, 'outbox: restored', { batches: this.#index.length, records: this.records });
    }
  }
}
