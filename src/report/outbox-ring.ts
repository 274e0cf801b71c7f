/**
 * The outbox's side of the store: a fixed ring of keys (`<prefix>r000` ..
 * `<prefix>r<slots-1>`) instead of a new key per batch, so a flash key table
 * (ESP32 NVS, Moddable `preference`) stays bounded however long the device
 * runs. Each entry holds one batch: `<lane><count>@<seq>|<json array>`; the
 * sequence number in the value, not the key, gives the queue order after a
 * restart (the ring wraps).
 *
 * Loading never stops the agent (docs/agent.md, "Store damage"): an entry the
 * store cannot read is skipped and its slot retired for this run; an entry
 * that reads but does not parse (truncated, garbled) is moved aside under
 * `<prefix>damaged/<name>`; a key under the prefix that is not ours is
 * skipped. Each is logged as a warning that names the key. Entries written by
 * the earlier one-key-per-batch layout (`<prefix><12-digit seq>`) are still
 * read, and deleted once delivered.
 */
import { toAgentError } from '../errors.js';
import type { KeyValueStore, Logger } from '../ports.js';
import type { Lane } from './outbox-options.js';

/** A batch as the store holds it. */
export interface StoredBatch {
  key: string;
  seq: number;
  lane: Lane;
  count: number;
  json: string;
}

const header = /^([sm])(\d{1,9})(?:@(\d{1,15}))?$/;
const ringName = /^r\d{3}$/;
const legacyName = /^\d{12}$/;

/** Parses an entry's text; `legacySeq` is the sequence number of a legacy key. */
export function decodeEntry(
  text: string,
  legacySeq: number | undefined,
): Omit<StoredBatch, 'key'> | { damage: string } {
  const bar = text.indexOf('|');
  const m = bar < 0 ? null : header.exec(text.slice(0, bar));
  if (m === null) return { damage: 'no header' };
  const count = Number(m[2]);
  const seq = m[3] === undefined ? legacySeq : Number(m[3]);
  if (seq === undefined || !(seq >= 1) || !(count >= 1)) return { damage: 'bad header' };
  const json = text.slice(bar + 1);
  let records: unknown;
  try {
    records = JSON.parse(json);
  } catch {
    return { damage: `truncated or garbled records (${json.length} bytes)` };
  }
  if (!Array.isArray(records) || records.length !== count) return { damage: `not ${count} records` };
  return { seq, lane: m[1] === 's' ? 's' : 'm', count, json };
}

export class OutboxRing {
  /** Per slot: 'free', 'used', or 'retired' (unreadable this run). */
  private readonly slots: Array<'free' | 'used' | 'retired'>;

  constructor(
    private readonly store: KeyValueStore,
    private readonly prefix: string,
    slotCount: number,
    private readonly logger: Logger,
  ) {
    this.slots = new Array<'free' | 'used' | 'retired'>(slotCount).fill('free');
  }

  keyOf(slot: number): string {
    return `${this.prefix}r${String(slot).padStart(3, '0')}`;
  }

  /** Slots holding a batch now. */
  get used(): number {
    return this.slots.filter((s) => s === 'used').length;
  }

  /**
   * Writes a batch into the lowest free slot (a short outage touches only the
   * first few keys); the key, or undefined when every slot is taken. Throws
   * what `set` throws.
   */
  write(seq: number, lane: Lane, count: number, json: string): string | undefined {
    const slot = this.slots.indexOf('free');
    if (slot < 0) return undefined;
    const key = this.keyOf(slot);
    this.store.set(key, `${lane}${count}@${seq}|${json}`);
    this.slots[slot] = 'used';
    return key;
  }

  /** Deletes a delivered or dropped batch's entry and frees its slot. */
  release(key: string): void {
    try {
      this.store.delete(key);
    } catch (e) {
      this.logger.log('warn', 'outbox: store entry not deleted', { key, reason: toAgentError(e).message });
    }
    const slot = this.slotOf(key);
    if (slot !== undefined && this.slots[slot] === 'used') this.slots[slot] = 'free';
  }

  /** Every readable batch in the store, oldest first; damaged entries handled as the header says. */
  load(): StoredBatch[] {
    const batches: StoredBatch[] = [];
    for (const key of this.store.keys(this.prefix)) {
      const name = key.slice(this.prefix.length);
      if (!ringName.test(name) && !legacyName.test(name)) {
        if (!name.startsWith('damaged/')) this.logger.log('warn', 'outbox: foreign store entry skipped', { key });
        continue;
      }
      const slot = this.slotOf(key);
      if (ringName.test(name) && slot === undefined) {
        this.logger.log('warn', 'outbox: store entry beyond the ring skipped', { key });
        continue;
      }
      const loaded = this.read(key);
      if (loaded === undefined) continue;
      if (slot !== undefined) this.slots[slot] = 'used';
      batches.push(loaded);
    }
    batches.sort((a, b) => a.seq - b.seq);
    return batches;
  }

  private slotOf(key: string): number | undefined {
    const name = key.slice(this.prefix.length);
    if (!key.startsWith(this.prefix) || !ringName.test(name)) return undefined;
    const slot = Number(name.slice(1));
    return slot < this.slots.length ? slot : undefined;
  }

  /**
   * Reads a batch written earlier; undefined when it vanished, is damaged
   * (moved aside), or cannot be read (its slot retired for this run). Logged.
   */
  read(key: string): StoredBatch | undefined {
    let text: string | undefined;
    try {
      text = this.store.get(key);
    } catch (e) {
      this.retire(key);
      this.logger.log('warn', 'outbox: unreadable store entry skipped', { key, reason: toAgentError(e).message });
      return undefined;
    }
    if (text === undefined) return undefined;
    const name = key.slice(this.prefix.length);
    const decoded = decodeEntry(text, legacyName.test(name) ? Number(name) : undefined);
    if (!('damage' in decoded)) return { key, ...decoded };
    this.moveAside(key, text, decoded.damage);
    return undefined;
  }

  /** Keeps a slot whose key cannot be read or cleared out of use for this run. */
  private retire(key: string): void {
    const slot = this.slotOf(key);
    if (slot !== undefined) this.slots[slot] = 'retired';
  }

  /** Keeps a damaged entry's text for inspection under `<prefix>damaged/<name>` (one per key: bounded). */
  private moveAside(key: string, text: string, damage: string): void {
    const aside = `${this.prefix}damaged/${key.slice(this.prefix.length)}`;
    try {
      this.store.set(aside, text);
      this.store.delete(key);
      this.logger.log('warn', 'outbox: damaged store entry moved aside', { key, to: aside, damage });
    } catch (e) {
      this.retire(key);
      this.logger.log('warn', 'outbox: damaged store entry skipped', {
        key,
        damage,
        reason: toAgentError(e).message,
      });
    }
  }
}
