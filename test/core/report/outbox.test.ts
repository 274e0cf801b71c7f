/** The outbox: ordered, RAM-first, persisted on failure into a fixed ring of keys, bounded, drop-oldest counted. */
import { defaultOutboxOptions, type OutboxOptions } from '../../../src/report/outbox-options.js';
import { Outbox } from '../../../src/report/outbox.js';
import { FakeClock } from '../../fakes/fake-clock.js';
import { FakeLogger } from '../../fakes/fake-logger.js';
import { FakeStore } from '../../fakes/fake-store.js';
import { assert } from '../../support/assert.js';

const opts: OutboxOptions = { ...defaultOutboxOptions, maxRecords: 10, maxBytes: 1000, prefix: 'ob/', storeSlots: 4 };

function make(store = new FakeStore(), options: Partial<OutboxOptions> = {}, clock = new FakeClock()) {
  const logger = new FakeLogger();
  return { box: new Outbox(store, { ...opts, ...options }, logger, clock), store, logger, clock };
}

/** Delivers everything: the json of each batch, in order. */
function drain(box: Outbox): string[] {
  const seen: string[] = [];
  for (let batch = box.peek(); batch !== undefined; batch = box.peek()) {
    seen.push(batch.json);
    box.remove(batch.seq);
  }
  return seen;
}

describe('outbox', () => {
  it('keeps batches in order, joins a backlog of one lane, and removes delivered ones', () => {
    const { box } = make();
    box.append('s', '[1,2]', 2);
    box.append('m', '[3]', 1);
    box.append('s', '[4]', 1);
    box.append('s', '[5]', 1); // joins [4]: the head [1,2] may be in flight and is never touched
    assert.equal(box.records, 5);
    // Three batches, oldest first:
    assert.deepEqual(box.peek(), { seq: 1, lane: 's', count: 2, json: '[1,2]' });
    box.remove(1);
    assert.deepEqual(box.peek(), { seq: 2, lane: 'm', count: 1, json: '[3]' });
    box.remove(2);
    assert.deepEqual(box.peek(), { seq: 3, lane: 's', count: 2, json: '[4,5]' });
    box.remove(3);
    assert.equal(box.peek(), undefined);
    assert.equal(box.records, 0);
    assert.equal(box.bytes, 0);
  });

  it('does not join past maxEntryBytes or maxEntryRecords', () => {
    const { box } = make(undefined, { maxEntryBytes: 8 });
    for (const json of ['[1]', '[22]', '[33]', '[44]']) box.append('s', json, 1);
    assert.deepEqual(drain(box), ['[1]', '[22,33]', '[44]']);
    const byCount = make(undefined, { maxEntryRecords: 3 }).box;
    for (const json of ['[1]', '[2,3]', '[4]', '[5]', '[6]']) byCount.append('s', json, json.split(',').length);
    assert.deepEqual(drain(byCount), ['[1]', '[2,3,4]', '[5,6]']);
  });

  it('writes nothing to the store while deliveries succeed', () => {
    const { box, store } = make();
    for (let i = 0; i < 20; i++) {
      box.append('s', `[${i}]`, 1);
      const batch = box.peek()!;
      box.remove(batch.seq);
      box.deliveryOk();
    }
    assert.equal(store.writes, 0);
    assert.equal(store.data.size, 0);
  });

  it('after a failed delivery, writes the queue, then new batches within persistDelayMs, coalesced per lane', () => {
    const { box, store, clock } = make(undefined, { persistDelayMs: 5000 });
    box.append('s', '[1]', 1);
    box.deliveryFailed();
    assert.equal(store.writes, 1);
    box.append('s', '[2]', 1);
    box.append('s', '[3]', 1);
    box.append('m', '[4]', 1);
    assert.equal(store.writes, 1, 'not yet');
    clock.advance(5000);
    assert.equal(store.writes, 3, 'one entry per lane');
    assert.equal(box.persisted, 3);
    const restarted = make(store).box;
    assert.deepEqual(drain(restarted), ['[1]', '[2,3]', '[4]']);
    assert.equal(store.data.size, 0, 'delivered entries are deleted');
  });

  it('back online, new batches stay in RAM; persist() (a clean stop) writes them for the next run', () => {
    const { box, store, clock } = make();
    box.append('s', '[1]', 1);
    box.deliveryFailed();
    box.remove(box.peek()!.seq);
    box.deliveryOk();
    box.append('s', '[2]', 1);
    clock.advance(60000);
    assert.equal(store.data.size, 0);
    box.persist();
    assert.deepEqual(drain(make(store).box), ['[2]']);
  });

  it('uses only its ring of keys, however many batches pass, and keeps the order', () => {
    const { box, store } = make(undefined, { maxRecords: 100 });
    const queue: string[] = [];
    const everKeys = new Set<string>();
    for (let i = 1; i <= 8; i++) {
      box.append(i % 2 === 0 ? 's' : 'm', `[${i}]`, 1);
      queue.push(`[${i}]`);
      box.deliveryFailed();
      for (const key of store.keys('ob/')) everKeys.add(key);
      if (i % 2 === 0) {
        assert.equal(box.peek()?.json, queue.shift());
        box.remove(box.peek()!.seq);
      }
    }
    assert.ok(everKeys.size >= 3 && [...everKeys].every((k) => /^ob\/r00[0-3]$/.test(k)), [...everKeys].join(' '));
    assert.deepEqual(drain(box), queue);
  });

  it('restores persisted batches in sequence order, not slot order, sequence continuing', () => {
    const store = new FakeStore();
    const first = make(store).box;
    for (let i = 1; i <= 3; i++) first.append(i % 2 === 0 ? 'm' : 's', `[${i}]`, 1);
    first.persist(); // r000 [1], r001 [2], r002 [3]
    first.remove(first.peek()!.seq); // frees r000
    first.append('s', '[4]', 1);
    first.persist(); // r000 [4]: a lower slot than older batches
    assert.equal(store.data.get('ob/r000'), 's1@4|[4]');
    const second = make(store).box;
    assert.deepEqual(drain(second), ['[2]', '[3]', '[4]']);
    second.append('s', '[5]', 1);
    assert.equal(second.peek()?.seq, 5);
  });

  it('when every slot is taken, keeps newer batches in RAM (warned once) and still delivers them', () => {
    const { box, store, logger } = make(undefined, { storeSlots: 2 });
    box.append('s', '[1]', 1);
    box.append('m', '[2]', 1);
    box.deliveryFailed();
    box.append('s', '[3]', 1);
    box.append('m', '[4]', 1);
    box.deliveryFailed();
    box.deliveryFailed();
    assert.equal(store.data.size, 2);
    assert.equal(logger.find('warn', 'outbox: store full').length, 1);
    assert.deepEqual(drain(box), ['[1]', '[2]', '[3]', '[4]']);
  });

  it('a failing store keeps the batches in RAM, warns once, and delivers them', () => {
    const { box, store, logger } = make();
    store.failWrites = true;
    box.append('s', '[1]', 1);
    box.deliveryFailed();
    box.deliveryFailed();
    assert.equal(logger.find('warn', 'store write failed').length, 1);
    assert.deepEqual(drain(box), ['[1]']);
  });

  it('drops the oldest batches when over the record bound, and counts them', () => {
    const { box, store } = make();
    box.append('s', '[1,1,1,1]', 4);
    box.append('m', '[2,2,2,2]', 4);
    box.deliveryFailed();
    box.append('s', '[3,3,3,3]', 4);
    assert.equal(box.dropped, 4);
    assert.equal(box.records, 8);
    assert.equal(box.peek()?.json, '[2,2,2,2]');
    assert.equal(store.keys('ob/').length, 1, 'the dropped batch left the store');
  });

  it('drops by bytes too, and refuses a batch over the bounds', () => {
    const { box } = make(undefined, { maxRecords: 100, maxBytes: 100 });
    const big = `["${'x'.repeat(56)}"]`; // 60 bytes
    box.append('s', big, 1);
    box.append('s', big, 1);
    assert.equal(box.dropped, 1);
    assert.ok(box.bytes <= 100);
    assert.throws(() => box.append('s', `["${'x'.repeat(200)}"]`, 1), 'too-large');
  });

  it('offline, waits longer before writing as the ring fills: 1x up to half, then 2x per eighth, at most 16x', () => {
    const { box } = make(undefined, { storeSlots: 16, maxRecords: 100, persistDelayMs: 1000 });
    const delays: number[] = [];
    box.append('s', '[0]', 1);
    box.deliveryFailed();
    for (let i = 1; i < 16; i++) {
      delays.push(box.persistDelayMs());
      box.append(i % 2 === 0 ? 's' : 'm', `[${i}]`, 1);
      box.persist();
    }
    assert.deepEqual(
      delays,
      [1000, 1000, 1000, 1000, 1000, 1000, 1000, 2000, 2000, 4000, 4000, 8000, 8000, 16000, 16000],
    );
  });

  it('refuses a ring outside 1..1000 slots', () => {
    assert.throws(() => make(undefined, { storeSlots: 0 }), 'config.invalid');
    assert.throws(() => make(undefined, { storeSlots: 1001 }), 'config.invalid');
  });
});
