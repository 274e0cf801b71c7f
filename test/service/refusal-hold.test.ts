/**
 * The rule for a token that keeps ignoring `Retry-After` (decisions 10,
 * docs/service.md#limits; host-sim/service/http/budget.ts): after a token's
 * first 429, `refusalsBeforeHold` more within that Retry-After are answered at
 * once (the limit), and each one past it is held until the Retry-After ends,
 * then answered 429 (past the limit); the hub's refusals are never held. The
 * service clock stands still unless the test moves it, so a hold lasts
 * what the test leaves of the window in real time: here 60 ms.
 */
import { strict as assert } from 'node:assert';
import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import { RequestBudget } from '../../host-sim/service/http/budget.js';
import { demo, quietHub, startTestService, type TestService } from './helpers.js';

/** The 429s the service held, from /metrics. */
async function held(t: TestService): Promise<number> {
  const r = await fetch(`${t.service.url}/metrics`, { headers: { Authorization: `Bearer ${demo.admin}` } });
  const family = parsePrometheusTextFormat(await r.text()).find((f) => f.name === 'dds_rate_limited_held');
  return Number(family?.metrics[0]?.value);
}

describe('service fair share: a token that ignores Retry-After', () => {
  let t: TestService | undefined;
  afterEach(async () => {
    await t?.service.close();
    t = undefined;
  });

  it('answers refusalsBeforeHold refusals at once after the first, holds the next until Retry-After ends', async () => {
    // 0.5 requests/s: Retry-After is 2 s, and the bucket stays empty for the whole window.
    t = await startTestService({ ...quietHub, limits: { ratePerSecond: 0.5, burst: 1, refusalsBeforeHold: 3 } });
    const get = async (): Promise<{ status: number; retryAfter: string | null; ms: number }> => {
      const t0 = performance.now();
      const r = await (t as TestService).get('/api/v1/devices/get?device=demo-001', demo.token1);
      return { status: r.status, retryAfter: r.headers.get('retry-after'), ms: performance.now() - t0 };
    };
    assert.equal((await get()).status, 200, 'the burst');
    const first = await get();
    assert.deepEqual([first.status, first.retryAfter], [429, '2'], 'the first 429 opens a window of 2 s');
    for (let i = 1; i <= 3; i++) {
      t.clock.nowMs += 600; // 1.8 s into the window at the third: the bucket holds 0.9 of a request
      assert.equal((await get()).status, 429, `refusal ${i} of 3 within the window`);
    }
    assert.equal(await held(t), 0, 'at the limit: none held');
    t.clock.nowMs += 140; // 60 ms of the window left
    const past = await get();
    assert.deepEqual([past.status, past.retryAfter], [429, '1'], 'past the limit: a 429, after the hold');
    assert.ok(past.ms >= 55, `held for the 60 ms left of the window, answered after ${past.ms.toFixed(1)} ms`);
    assert.equal(await held(t), 1);
    // The window over, the budget is back: answered at once, and a new window starts with its first 429.
    t.clock.nowMs += 60;
    assert.equal((await get()).status, 200);
    assert.equal((await get()).status, 429);
    assert.equal((await get()).status, 429);
    assert.equal(await held(t), 1, 'a new window: its refusals are answered at once again');
    assert.equal((await t.get('/api/v1/devices/get?device=demo-002', demo.token2)).status, 200, 'another token');
  });

  it('marks a refusal to hold only past the rule, and never for a token that waited out its Retry-After', () => {
    const budget = new RequestBudget(1, 1, 2);
    const refusal = (nowMs: number): number => {
      try {
        budget.take('a', nowMs);
      } catch (e) {
        return (e as { holdMs: number }).holdMs;
      }
      return -1; // accepted
    };
    assert.equal(refusal(0), -1);
    assert.deepEqual([refusal(0), refusal(100), refusal(200), refusal(300), refusal(900)], [0, 0, 0, 700, 100]);
    assert.equal(refusal(1000), -1, 'after Retry-After (1 s) the budget is back');
    assert.deepEqual([refusal(1000), refusal(2000)], [0, -1], 'a client that waits out each Retry-After is never held');
    assert.deepEqual([refusal(2000), refusal(2999)], [0, 0]);
    assert.equal(budget.refused, 8);
  });
});
