// The board clock's reusable timer (targets/moddable/clock.ts `timer`) on XS,
// on the fake `timer` module with the SDK's rules (test/xs/firmware/bridge.ts:
// a timer whose repeat is 0 when its callback returns is cleared, an
// unscheduled one never fires): the scheduler's one wake-up timer is made
// once, fires once per arming, survives being re-armed from its own callback,
// and arming it allocates no slot (xsnap's slot meter).
import { strict as assert } from 'node:assert';
import { adapterRun, assertHealthy, figures } from './firmware-support.mjs';

const firings = async (run, tag, count) => {
  assert.ok(
    await run.until(() => run.results.filter((r) => r.tag === tag).length >= count, 5_000, 10),
    `${tag}: fewer than ${count} firings`,
  );
  return run.results.filter((r) => r.tag === tag);
};

export const clockCases = [
  [
    'the reusable timer fires once per arming, re-armed from its own callback, one SDK timer made',
    async () => {
      const run = await adapterRun('esp32');
      try {
        const from = run.nowMs;
        await run.evaluate(`__fw.reusableTimer('t', [100, 50, 200])`);
        const seen = await firings(run, 't', 3);
        const last = seen[seen.length - 1];
        const at = last.fired.map((ms) => ms - from);
        // Each firing at its arming's delay after the one before (virtual steps are at most 100 ms, exact here).
        assert.deepEqual(at, [100, 150, 350], JSON.stringify(seen));
        assert.equal(last.made, 1, 'one SDK timer for every arming');
        // Left disarmed after the last firing: nothing more, and the SDK did not clear or repeat it.
        await run.runFor(1_000);
        assert.equal(run.results.filter((r) => r.tag === 't').length, 3, 'no firing without an arming');
        assertHealthy(run);
      } finally {
        await run.stop();
      }
    },
  ],
  [
    'arming the reusable timer allocates no slot on XS (slot meter over 1,000 armings)',
    async () => {
      const run = await adapterRun('esp32');
      try {
        const allocated = async (count) => {
          await run.worker.evaluate('gc()');
          const { meterUsage } = await run.worker.evaluate(`__fw.rearm(${String(count).padStart(4, '0')})`);
          return meterUsage.currentHeapCount;
        };
        await allocated(0); // makes the timer
        const none = await allocated(0);
        const many = await allocated(1000);
        figures.slotsPerTimerArming = (many - none) / 1000;
        // The same script text apart from the count: any slot an arming made would show 1,000 times.
        assert.ok(many - none < 10, `1,000 armings allocated ${many - none} slots (0 runs: ${none}, 1,000: ${many})`);
        await run.evaluate('__fw.rearm(0001)');
        assertHealthy(run);
      } finally {
        await run.stop();
      }
    },
  ],
];
