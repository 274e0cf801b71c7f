/**
 * Store bytes written per record delivered, online and offline, with a
 * counting store. The same records (8 channels, one state each per second,
 * batched by the real Batcher every second) go through the outbox under
 * test and a FakeClock; delivery is modelled: online, each batch is delivered
 * as it closes; offline, a delivery attempt fails every 30 s, and once the
 * service is back the queue is drained. The peer is the outbox as it was
 * before (kept here as WriteThroughOutbox): every batch written to the store
 * under a new key when it closes, deleted when delivered.
 */
import { Batcher, defaultBatchOptions } from '../../src/report/batcher.js';
import { defaultOutboxOptions, type Lane } from '../../src/report/outbox-options.js';
import { Outbox } from '../../src/report/outbox.js';
import { encodeRecord, stampTail } from '../../src/report/records.js';
import type { KeyValueStore } from '../../src/ports.js';
import { byteLength } from '../../src/report/batcher.js';
import { FakeClock } from '../../test/fakes/fake-clock.js';
import { FakeLogger } from '../../test/fakes/fake-logger.js';

/** A store that counts what reaches it: bytes of keys and values set, sets, deletes, distinct keys. */
export class CountingStore implements KeyValueStore {
  private readonly data = new Map<string, string>();
  readonly keysEver = new Set<string>();
  bytesWritten = 0;
  sets = 0;
  deletes = 0;
  get(key: string): string | undefined {
    return this.data.get(key);
  }
  set(key: string, value: string): void {
    this.sets++;
    this.bytesWritten += byteLength(key) + byteLength(value);
    this.keysEver.add(key);
    this.data.set(key, value);
  }
  delete(key: string): void {
    this.deletes++;
    this.data.delete(key);
  }
  keys(prefix: string): string[] {
    return [...this.data.keys()].filter((k) => k.startsWith(prefix)).sort();
  }
}

/** What a queue under test must offer the model sender. */
interface Queue {
  append(lane: Lane, json: string, count: number, bytes: number): void;
  peek(): { seq: number; count: number } | undefined;
  remove(seq: number): void;
  deliveryOk(): void;
  deliveryFailed(): void;
}

/** The peer: one store entry per batch under a new key, written when the batch closes. */
class WriteThroughOutbox implements Queue {
  private readonly queue: { seq: number; count: number }[] = [];
  private seq = 1;
  constructor(private readonly store: KeyValueStore) {}
  private key(seq: number): string {
    return `outbox/${String(seq).padStart(12, '0')}`;
  }
  append(lane: Lane, json: string, count: number): void {
    const seq = this.seq++;
    this.store.set(this.key(seq), `${lane}${count}|${json}`);
    this.queue.push({ seq, count });
  }
  peek(): { seq: number; count: number } | undefined {
    return this.queue[0];
  }
  remove(seq: number): void {
    this.queue.shift();
    this.store.delete(this.key(seq));
  }
  deliveryOk(): void {}
  deliveryFailed(): void {}
}

export interface FlashFigures {
  records: number;
  bytesWritten: number;
  bytesPerRecord: number;
  sets: number;
  deletes: number;
  keysUsed: number;
}

/** Runs `onlineS` seconds online, or `offlineS` seconds offline then a drain; figures per record delivered. */
export function flashRun(kind: 'ring' | 'write-through', mode: 'online' | 'offline', seconds: number): FlashFigures {
  const clock = new FakeClock();
  const store = new CountingStore();
  const queue: Queue =
    kind === 'ring'
      ? new Outbox(store, { ...defaultOutboxOptions, maxEntryBytes: 64 * 1024 }, new FakeLogger(), clock)
      : new WriteThroughOutbox(store);
  let online = mode === 'online';
  let delivered = 0;
  const deliverAll = (): void => {
    for (let b = queue.peek(); b !== undefined; b = queue.peek()) {
      queue.remove(b.seq);
      delivered += b.count;
      queue.deliveryOk();
    }
  };
  const batcher = new Batcher(clock, defaultBatchOptions, (lane, json, count, bytes) => {
    queue.append(lane, json, count, bytes);
    if (online) deliverAll();
  });
  const wall = Date.UTC(2026, 0, 1);
  for (let s = 0; s < seconds; s++) {
    for (let c = 0; c < 8; c++)
      batcher.add('s', encodeRecord('s', `ch${c}`, true, 20 + ((s * 7 + c) % 50) / 10) + stampTail(wall + s * 1000));
    if (!online && s % 30 === 0) queue.deliveryFailed();
    clock.advance(1000);
  }
  batcher.flush();
  online = true;
  deliverAll();
  return {
    records: delivered,
    bytesWritten: store.bytesWritten,
    bytesPerRecord: Math.round((store.bytesWritten / Math.max(1, delivered)) * 100) / 100,
    sets: store.sets,
    deletes: store.deletes,
    keysUsed: store.keysEver.size,
  };
}
