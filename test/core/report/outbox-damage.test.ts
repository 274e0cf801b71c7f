/**
 * Store damage (docs/agent.md, "Store damage"): an unreadable, truncated or
 * garbled entry never stops the outbox; it is counted in `damaged`, logged
 * once per boot and removed, and every readable batch is delivered. A foreign
 * key under the prefix is left alone.
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
  readonly undeletable = new Set<string>();
  override get(key: string): string | undefined {
    if (this.unreadable.has(key)) throw new Error(`EISDIR: illegal operation on a directory, read (${key})`);
    return super.get(key);
  }
  override delete(key: string): void {
    if (this.undeletable.has(key)) throw new Error(`EISDIR: illegal operation on a directory, unlink (${key})`);
    super.delete(key);
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

/** The one damage warning of this boot, which names the first damaged key. */
function warnedOnce(logger: FakeLogger, key: string): void {
  const lines = logger.find('warn', 'damaged entry removed');
  assert.deepEqual(
    lines.map((l) => l.fields?.['key']),
    [key],
    JSON.stringify(logger.lines),
  );
}

describe('outbox: store damage', () => {
  it('skips an unreadable entry, keeps its slot out of use and delivers the rest', () => {
    const store = seeded('s1@2|[{"b":2}]');
    store.unreadable.add('ob/r001');
    store.undeletable.add('ob/r001');
    const { box, logger } = open(store);
    warnedOnce(logger, 'ob/r001');
    assert.equal(box.damaged, 1);
    assert.deepEqual(drain(box), ['[{"a":1}]', '[{"c":3},{"c":4}]']);
    for (let i = 0; i < 8; i++) {
      box.append('s', `[${i}]`, 1);
      box.append('m', `[${i}]`, 1);
      box.deliveryFailed();
    }
    assert.equal(store.data.get('ob/r001'), 's1@2|[{"b":2}]', 'the slot is never written over');
    assert.equal(box.persisted, 8, 'seven batches and the slot kept out of use');
  });

  it('removes truncated, garbled and mismatched entries, logs the first once, and delivers the rest', () => {
    const store = seeded('s2@2|[{"b":2},{"b"');
    for (const [i, text] of ['garbage', 'x1@2|[1]', 's3@2|[1]', 's1@2|{"b":2}', '', 's1|[5]'].entries()) {
      store.set(`ob/r00${i + 3}`, text);
    }
    const { box, logger } = open(store);
    warnedOnce(logger, 'ob/r001');
    assert.equal(box.damaged, 7);
    assert.deepEqual([...store.data.keys()], ['ob/r000', 'ob/r002'], 'damaged entries removed, their slots free');
    assert.deepEqual(drain(box), ['[{"a":1}]', '[{"c":3},{"c":4}]']);
  });

  it('leaves a foreign key under the prefix alone, and delivers an entry beyond a smaller ring', () => {
    const store = seeded(undefined);
    store.set('ob/notes.txt', 'hello');
    store.set('ob/r999', 's1@9|[9]'); // written with a larger ring
    const { box, logger } = open(store);
    assert.equal(logger.lines.filter((l) => l.level === 'warn').length, 0);
    assert.deepEqual(drain(box), ['[{"a":1}]', '[{"c":3},{"c":4}]', '[9]']);
    assert.equal(store.data.get('ob/notes.txt'), 'hello');
    assert.equal(store.data.has('ob/r999'), false, 'deleted once delivered');
    assert.equal(box.persisted, 0);
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
    warnedOnce(logger, 'ob/r000');
    assert.equal(store.data.has('ob/r000'), false);
  });

  it('counts a batch whose entry became unreadable as dropped, and writes no more into that slot', () => {
    const store = new DamagedStore();
    const { box, logger } = open(store);
    box.append('s', '[1]', 1);
    box.append('m', '[2]', 1);
    box.deliveryFailed(); // r000 [1], r001 [2]
    store.unreadable.add('ob/r000');
    store.undeletable.add('ob/r000');
    assert.equal(box.peek()?.json, '[2]');
    assert.equal(box.dropped, 1);
    warnedOnce(logger, 'ob/r000');
    box.append('s', '[3]', 1);
    box.persist();
    assert.equal(store.data.get('ob/r002'), 's1@3|[3]', 'the next free slot, not the retired one');
    assert.deepEqual(drain(box), ['[2]', '[3]']);
  });
});
