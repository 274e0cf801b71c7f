/** Batching by count, bytes and age. */
import { Batcher, byteLength, isAscii } from '../../../src/report/batcher.js';
import { FakeClock } from '../../fakes/fake-clock.js';
import { assert } from '../../support/assert.js';

function setup(maxRecords: number, maxBytes: number, maxAgeMs: number) {
  const clock = new FakeClock();
  const out: Array<{ lane: string; json: string; count: number }> = [];
  const b = new Batcher(clock, { maxRecords, maxBytes, maxAgeMs }, (lane, json, count) =>
    out.push({ lane, json, count }),
  );
  return { clock, out, b };
}

describe('batcher', () => {
  it('counts UTF-8 bytes: ASCII by its length, other text per code point', () => {
    const record = '{"channel":"door.reported","value":12.5,"timestamp":1767225600.123}';
    assert.equal(byteLength(record), record.length);
    assert.equal(byteLength('\u007f'), 1);
    assert.equal(byteLength('caf\u00e9'), 5);
    assert.equal(byteLength('\u20ac'), 3);
    assert.equal(byteLength('x\ud83d\ude00'), 5);
  });

  it('takes ASCII text as ASCII on every engine (XS read /[^\\x00-\\x7f]/ as matching it)', () => {
    assert.equal(isAscii('{"channel":"door.reported","value":true,"timestamp":1767225600}'), true);
    assert.equal(isAscii(' ~\u007f'), true);
    assert.equal(isAscii('caf\u00e9'), false);
    assert.equal(isAscii('x\ud83d\ude00'), false);
  });

  it('closes a batch at maxRecords', () => {
    const { out, b } = setup(3, 10000, 1000);
    for (let i = 0; i < 7; i++) b.add('s', `${i}`);
    assert.deepEqual(out, [
      { lane: 's', json: '[0,1,2]', count: 3 },
      { lane: 's', json: '[3,4,5]', count: 3 },
    ]);
    b.flush(); // the one record left open
    assert.deepEqual(out.slice(2), [{ lane: 's', json: '[6]', count: 1 }]);
  });

  it('closes a batch before it would pass maxBytes', () => {
    const { out, b } = setup(100, 12, 1000);
    b.add('s', '"aaa"');
    b.add('s', '"bbb"');
    assert.equal(out.length, 1);
    assert.equal(out[0]?.json, '["aaa"]');
  });

  it('closes every lane maxAgeMs after the first record', () => {
    const { clock, out, b } = setup(100, 10000, 1000);
    b.add('s', '1');
    clock.advance(500);
    b.add('m', '2');
    clock.advance(499);
    assert.equal(out.length, 0);
    clock.advance(1);
    assert.deepEqual(out, [
      { lane: 's', json: '[1]', count: 1 },
      { lane: 'm', json: '[2]', count: 1 },
    ]);
    assert.equal(clock.pending, 0);
  });

  it('a lane closed at once (a prompt record) keeps the other lane on its age timer; the next record arms it again', () => {
    const { clock, out, b } = setup(100, 10000, 1000);
    b.add('m', '1');
    clock.advance(600);
    b.add('s', '2', true);
    assert.deepEqual(out, [{ lane: 's', json: '[2]', count: 1 }]);
    clock.advance(399);
    assert.equal(out.length, 1);
    clock.advance(1); // 1000 ms after the first record
    assert.deepEqual(out.slice(1), [{ lane: 'm', json: '[1]', count: 1 }]);
    assert.equal(clock.pending, 0);
    b.add('s', '3', true); // closed at once: nothing left to wait for
    assert.equal(clock.pending, 0);
    b.add('s', '4');
    assert.equal(clock.pending, 1);
    clock.advance(1000);
    assert.deepEqual(out.slice(3), [{ lane: 's', json: '[4]', count: 1 }]);
  });
});
