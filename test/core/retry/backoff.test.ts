import { fullJitter } from '../../../src/retry/backoff.js';
import { assert } from '../../support/assert.js';

describe('retry/backoff', () => {
  it('doubles the window from base up to the cap, and never gives up', () => {
    // A draw just under 1 answers the window's top: window - 1.
    const policy = fullJitter(100, 1000, () => 0.999999);
    const delays = [1, 2, 3, 4, 5, 6, 50, 10000].map((n) => policy.nextDelayMs(n));
    assert.deepEqual(delays, [99, 199, 399, 799, 999, 999, 999, 999]);
  });

  it('defaults to 1 s doubling to 60 s', () => {
    const policy = fullJitter(undefined, undefined, () => 0.999999);
    assert.deepEqual(
      [1, 2, 7, 8].map((n) => policy.nextDelayMs(n)),
      [999, 1999, 59999, 59999],
    );
  });

  it('draws the delay uniformly inside the window (full jitter)', () => {
    const draws = [0, 0.5, 0.25];
    const policy = fullJitter(1000, 8000, () => draws.shift() ?? 0);
    assert.equal(policy.nextDelayMs(1), 0);
    assert.equal(policy.nextDelayMs(2), 1000);
    assert.equal(policy.nextDelayMs(4), 2000);
  });

  it('refuses a nonsensical configuration', () => {
    assert.throws(() => fullJitter(0));
    assert.throws(() => fullJitter(10, 5));
  });
});
