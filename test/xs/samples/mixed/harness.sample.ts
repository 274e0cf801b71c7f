/**
 * Sample tests for the XS harness's own test (test/xs/runner.test.ts): every
 * mocha feature the portable tests use, run on XS, with known outcomes
 * (8 pass, 3 fail, 1 pending). Not part of the core suite (`.sample.ts`).
 */
import { assert } from '../../../support/assert.js';
import { readFixture } from '../../../support/fixtures.js';

const order: string[] = [];

describe('harness', () => {
  before(function () {
    (this as unknown as { shared: number }).shared = 42;
    order.push('before');
  });
  beforeEach(() => {
    order.push('beforeEach');
  });
  afterEach(() => {
    order.push('afterEach');
  });
  after(() => {
    order.push('after');
  });

  it('runs a synchronous test with the suite context', function () {
    assert.equal((this as unknown as { shared: number }).shared, 42);
  });

  it('awaits an async test', async () => {
    const v = await Promise.resolve(7);
    assert.equal(v, 7);
  });

  it('supports a done callback', (done) => {
    void Promise.resolve().then(() => done());
  });

  it('sees a bare XS machine: no timers, console or TextEncoder', () => {
    const g = globalThis as Record<string, unknown>;
    for (const name of ['setTimeout', 'setImmediate', 'console', 'print', 'TextEncoder', 'performance']) {
      assert.equal(typeof g[name], 'undefined', name);
    }
  });

  it('reads fixtures from the host', () => {
    assert.match(readFixture('gnss-logs/COPYING'), /\S/);
  });

  it('skips with this.skip()', function () {
    this.skip();
  });

  it('fails a synchronous assertion', () => {
    assert.equal(1 + 1, 3, 'arithmetic');
  });

  it('fails a rejected promise', async () => {
    await Promise.resolve();
    throw new Error('rejected on purpose');
  });

  it('fails a done callback called with an error', (done) => {
    done(new Error('done with an error'));
  });

  describe('nested', () => {
    beforeEach(() => {
      order.push('inner beforeEach');
    });
    it('runs outer hooks before inner ones', () => {
      assert.deepEqual(order.slice(-2), ['beforeEach', 'inner beforeEach']);
    });
  });
});

describe('after the first suite', () => {
  it('ran the hooks in mocha order', () => {
    assert.equal(order[0], 'before');
    assert.equal(order.at(-1), 'after');
    assert.equal(order.filter((x) => x === 'beforeEach').length, 10);
    assert.equal(order.filter((x) => x === 'afterEach').length, 10);
  });

  it('reports a missing fixture as an error', () => {
    assert.throws(() => readFixture('no/such/file.txt'));
  });
});
