/** The outbox: ordered, persistent, bounded in records and bytes, drop-oldest counted. */
import { Outbox } from '../../../src/report/outbox.js';
import { FakeLogger } from '../../fakes/fake-logger.js';
import { FakeStore } from '../../fakes/fake-store.js';
import { assert } from '../../support/assert.js';

const opts = { maxRecords: 10, maxBytes: 1000, prefix: 'ob/' };

describe('outbox', () => {
  it('keeps batches in order and removes delivered ones', () => {
    const box = new Outbox(new FakeStore(), opts, new FakeLogger());
    box.append('s', '[1,2]', 2);
    box.append('m', '[3]', 1);
    assert.equal(box.records, 3);
    const first = box.peek();
    assert.deepEqual(first, { seq: 1, lane: 's', count: 2, json: '[1,2]' });
    box.remove(1);
    assert.deepEqual(box.peek(), { seq: 2, lane: 'm', count: 1, json: '[3]' });
    box.remove(2);
    assert.equal(box.peek(), undefined);
    assert.equal(box.records, 0);
    assert.equal(box.bytes, 0);
  });

  it('survives a restart on the same store, sequence continuing', () => {
    const store = new FakeStore();
    const a = new Outbox(store, opts, new FakeLogger());
    for (let i = 1; i <= 11; i++) a.append('s', `[${i}]`, 1);
    const b = new Outbox(store, opts, new FakeLogger());
    assert.equal(b.records, 10);
    assert.equal(b.peek()?.json, '[2]');
    b.append('s', '[12]', 1);
    const seen: string[] = [];
    for (let batch = b.peek(); batch !== undefined; batch = b.peek()) {
      seen.push(batch.json);
      b.remove(batch.seq);
    }
    assert.deepEqual(seen, ['[3]', '[4]', '[5]', '[6]', '[7]', '[8]', '[9]', '[10]', '[11]', '[12]']);
  });

  it('drops the oldest batches when over the record bound, and counts them', () => {
    const box = new Outbox(new FakeStore(), opts, new FakeLogger());
    box.append('s', '[1,1,1,1]', 4);
    box.append('s', '[2,2,2,2]', 4);
    box.append('s', '[3,3,3,3]', 4);
    assert.equal(box.dropped, 4);
    assert.equal(box.records, 8);
    assert.equal(box.peek()?.json, '[2,2,2,2]');
  });

  it('drops by bytes too, and refuses a batch over the bounds', () => {
    const box = new Outbox(new FakeStore(), { maxRecords: 100, maxBytes: 100, prefix: 'ob/' }, new FakeLogger());
    const big = `["${'x'.repeat(56)}"]`; // 60 bytes
    box.append('s', big, 1);
    box.append('s', big, 1);
    assert.equal(box.dropped, 1);
    assert.ok(box.bytes <= 100);
    assert.throws(() => box.append('s', `["${'x'.repeat(200)}"]`, 1), 'too-large');
  });

  it('discards a corrupt stored batch with an error line', () => {
    const store = new FakeStore();
    store.set('ob/000000000001', 'nonsense');
    store.set('ob/000000000002', 's1|[7]');
    const logger = new FakeLogger();
    const box = new Outbox(store, opts, logger);
    assert.equal(box.peek()?.json, '[7]');
    assert.equal(logger.find('error', 'corrupt').length, 1);
  });
});
