/**
 * One TLS handshake at a time (targets/moddable/tls-turn.ts): the order of the
 * turns, a turn abandoned while waiting or while handshaking, a start that
 * ends its own turn at once (a connect that fails synchronously), and a second
 * `done`. Each case ends every turn it took (the module's queue is shared).
 */
import { strict as assert } from 'node:assert';
import { tlsTurn } from '../../targets/moddable/tls-turn.js';

describe('Moddable target: one TLS handshake at a time', () => {
  it('runs the first at once and the next only when the one before ends, in order', () => {
    const started: string[] = [];
    const a = tlsTurn(() => started.push('a'));
    const b = tlsTurn(() => started.push('b'));
    const c = tlsTurn(() => started.push('c'));
    assert.deepEqual(started, ['a']);
    a();
    assert.deepEqual(started, ['a', 'b']);
    a(); // a second done does nothing
    assert.deepEqual(started, ['a', 'b']);
    b();
    assert.deepEqual(started, ['a', 'b', 'c']);
    c();
    const d = tlsTurn(() => started.push('d'));
    assert.deepEqual(started, ['a', 'b', 'c', 'd'], 'free again: the next starts at once');
    d();
  });

  it('a turn abandoned while waiting never starts, and does not free the one handshaking', () => {
    const started: string[] = [];
    const a = tlsTurn(() => started.push('a'));
    const b = tlsTurn(() => started.push('b'));
    const c = tlsTurn(() => started.push('c'));
    b(); // e.g. the request timed out while queued
    assert.deepEqual(started, ['a']);
    a();
    assert.deepEqual(started, ['a', 'c']);
    b();
    assert.deepEqual(started, ['a', 'c']);
    c();
  });

  it('a start that ends its own turn (the connect failed at once) lets the next one run', () => {
    const started: string[] = [];
    const a = tlsTurn(() => started.push('a'));
    const b = tlsTurn((done) => {
      started.push('b');
      done();
    });
    const c = tlsTurn(() => started.push('c'));
    a();
    assert.deepEqual(started, ['a', 'b', 'c']);
    b();
    c();
    const first = tlsTurn((done) => done());
    first();
    let ran = false;
    const next = tlsTurn(() => (ran = true));
    assert.ok(ran, 'the queue is free after a turn that ended inside its start');
    next();
  });
});
