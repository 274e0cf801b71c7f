/**
 * Store damage at start (docs/agent.md, "Store damage"): an unreadable,
 * truncated, garbled or foreign entry never stops the outbox; it is skipped
 * or moved aside with a warning that names it, and every readable batch is
 * delivered.
 */
import { defaultOutboxOptions, type OutboxOptions } from '../../../src/report/outbox-options.js';
import { Outbox } from '../../../src/report/outbox.js';
import { FakeClock } from '../../fakes/fake-clock.js';
import { FakeLogger } from '../../fakes/fake-logger.js';
import { FakeStore } from '../../fakes/fake-store.js';
import { assert } from '../../support/assert.js';

const opts: OutboxOptions = { ...defaultOutboxOptions, prefix: 'ob/', storeSlots: 8 };

/** A store in which some keys cannot be read (a directory where a file should be, an I/O error). */
class DamagedStore extends FakeStore {
  readonly unreadable = new Set<string>();
  override get(key: string): string | undefined {
    if (this.unreadable.has(key)) throw new Error(`EISDIR: illegal operation on a directory, read (${key})`);
    return super.get(key);
  }
}

function open(store: FakeStore): { box: Outbox; logger: FakeLogger } {
  const logger = new FakeLogger();
  return { box: new Outbox(store, opts, logger, new FakeClock()), logger };
}

function drain(box: Outbox): string[] {
  const seen: string[] = [];
  for (let batch = box.peek(); batch !== undefined; batch = box.peek()) {
    seen.push(batch.json);
    box.remove(batch.seq);
  }
  return seen;
}

/** Two good batches around the damaged slot r001. */
function seeded(damaged: string | undefined): DamagedStore {
  const store = new DamagedStore();
  store.set('ob/r000', 's1@1|[{"a":1}]');
  if (damaged !== undefined) store.set('ob/r001', damaged);
  store.set('ob/r002', 's2@3|[{"c":3},{"c":4}]');
  return store;
}

/** The warning naming `key`, of which there must be exactly one. */
function warningFor(logger: FakeLogger, text: string, key: string): void {
  const lines = logger.find('warn', text).filter((l) => l.fields?.['key'] === key);
  assert.equal(lines.length, 1, `one "${text}" warning naming ${key}: ${JSON.stringify(logger.lines)}`);
}

describe('outbox: store damage', () => {
  it('skips an unreadable entry, names it, retires its slot and delivers the rest', () => {
    const store = seeded('s1@2|[{"b":2}]');
    store.unreadable.add('ob/r001');
    const { box, logger } = open(store);
    warningFor(logger, 'unreadable store entry skipped', 'ob/r001');
    assert.deepEqual(drain(box), ['[{"a":1}]', '[{"c":3},{"c":4}]']);
    for (let i = 0; i < 8; i++) {
      box.append('s', `[${i}]`, 1);
      box.append('m', `[${i}]`, 1);
      box.deliveryFailed();
    }
    assert.equal(store.data.get('ob/r001'), 's1@2|[{"b":2}]', 'the retired slot is never written over');
    assert.equal(box.persisted, 7);
  });

  it('moves a truncated entry aside, names it, and delivers the rest', () => {
    const truncated = 's2@2|[{"b":2},{"b"';
    const store = seeded(truncated);
    const { box, logger } = open(store);
    warningFor(logger, 'damaged store entry moved aside', 'ob/r001');
    assert.equal(store.data.get('ob/damaged/r001'), truncated, 'kept for inspection');
    assert.equal(store.data.has('ob/r001'), false, 'the slot is free again');
    assert.deepEqual(drain(box), ['[{"a":1}]', '[{"c":3},{"c":4}]']);
  });

  it('moves aside an entry whose header is garbled or whose count does not match', () => {
    for (const text of ['garbage', 'x1@2|[1]', 's3@2|[1]', 's1@2|{"b":2}', '']) {
      const { box, logger } = open(seeded(text));
      warningFor(logger, 'damaged store entry moved aside', 'ob/r001');
      assert.deepEqual(drain(box), ['[{"a":1}]', '[{"c":3},{"c":4}]'], text);
    }
  });

  it('skips a foreign key under the prefix, names it, leaves it alone', () => {
    const store = seeded(undefined);
    store.set('ob/notes.txt', 'hello');
    store.set('ob/r999', 's1@9|[9]'); // beyond this ring of 8
    const { box, logger } = open(store);
    warningFor(logger, 'foreign store entry skipped', 'ob/notes.txt');
    warningFor(logger, 'beyond the ring skipped', 'ob/r999');
    assert.deepEqual(drain(box), ['[{"a":1}]', '[{"c":3},{"c":4}]']);
    assert.equal(store.data.get('ob/notes.txt'), 'hello');
  });

  it('reads entries of the one-key-per-batch layout and deletes them once delivered', () => {
    const store = new FakeStore();
    store.set('ob/000000000005', 's1|[5]');
    store.set('ob/r000', 's1@7|[7]');
    const { box } = open(store);
    assert.deepEqual(drain(box), ['[5]', '[7]']);
    assert.equal(store.data.size, 0);
  });

  it('counts a batch whose entry was damaged after it was written as dropped', () => {
    const store = new FakeStore();
    const { box, logger } = open(store);
    box.append('s', '[1]', 1);
    box.append('m', '[2]', 1);
    box.deliveryFailed();
    store.data.set('ob/r000', 's1@1|[1');
    assert.equal(box.peek()?.json, '[2]');
    assert.equal(box.dropped, 1);
    warningFor(logger, 'damaged store entry moved aside', 'ob/r000');
  });

  it('counts a batch whose entry became unreadable as dropped, and writes no more into that slot', () => {
    const store = new DamagedStore();
    const { box, logger } = open(store);
    box.append('s', '[1]', 1);
    box.append('m', '[2]', 1);
    box.deliveryFailed(); // r000 [1], r001 [2]
    store.unreadable.add('ob/r000');
    assert.equal(box.peek()?.json, '[2]');
    assert.equal(box.dropped, 1);
    warningFor(logger, 'unreadable store entry skipped', 'ob/r000');
    box.append('s', '[3]', 1);
    box.persist();
    assert.equal(store.data.get('ob/r002'), 's1@3|[3]', 'the next free slot, not the retired one');
    assert.deepEqual(drain(box), ['[2]', '[3]']);
  });
});
