import { FullJitterBackoff } from '../../../src/retry/backoff.js';
import { assert } from '../../support/assert.js';

describe('retry/backoff', () => {
  it('doubles the window from base up to the cap, and never gives up', () => {
    const policy = new FullJitterBackoff({ baseMs: 100, capMs: 1000, random: () => 0.999999 });
    const windows = [1, 2, 3, 4, 5, 6, 50, 10000].map((n) => policy.windowMs(n));
    assert.deepEqual(windows, [100, 200, 400, 800, 1000, 1000, 1000, 1000]);
    assert.equal(policy.nextDelayMs(10000), 999);
  });

  it('draws the delay uniformly inside the window (full jitter)', () => {
    const draws = [0, 0.5, 0.25];
    const policy = new FullJitterBackoff({ baseMs: 1000, capMs: 8000, random: () => draws.shift() ?? 0 });
    assert.equal(policy.nextDelayMs(1), 0);
    assert.equal(policy.nextDelayMs(2), 1000);
    assert.equal(policy.nextDelayMs(4), 2000);
  });

  it('refuses a nonsensical configuration', () => {
    assert.throws(() => new FullJitterBackoff({ baseMs: 0 }));
    assert.throws(() => new FullJitterBackoff({ baseMs: 10, capMs: 5 }));
  });
});
