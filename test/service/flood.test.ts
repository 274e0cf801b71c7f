/**
 * The fair-share scenario (bench/service/flood.ts, also case 5 of
 * `bench:service`) as a test, with a budget of 5 requests/s: one device token
 * floods property and state writes at its budget and meets 429s, while another
 * device's reads keep answering 200 quickly, the flooder's 429s are held once
 * it keeps ignoring Retry-After, and RSS and the database grow within their
 * quotas. The service runs in this process, on a database file; the flooder in
 * a worker thread.
 */
import { strict as assert } from 'node:assert';
import { join } from 'node:path';
import tmp from 'tmp';
import { benchFixture } from '../../bench/service/http.js';
import { floodTarget, runFlood } from '../../bench/service/flood.js';
import { startService } from '../../host-sim/service/index.js';

describe('service fair share under a flood', function () {
  this.timeout(60_000);

  it("keeps another device's reads fast while one token floods writes at its budget", async () => {
    const dir = tmp.dirSync({ unsafeCleanup: true });
    const dbPath = join(dir.name, 'flood.db');
    // A budget this process can overrun while it also serves (the bench floods the documented one).
    const service = await startService({ fixture: benchFixture(), dbPath, limits: { ratePerSecond: 5, burst: 5 } });
    try {
      const f = await runFlood(
        floodTarget(service.url, dbPath),
        4000,
        250, // the reader stays within the same budget: 4 reads a second
      );
      console.log(`      flood figures: ${JSON.stringify(f)}`);
      assert.ok(f.flooder429 > 0, 'the flooder met its budget');
      assert.ok(f.flooderOk > 0 && f.flooderOther === 0);
      assert.ok(f.flooded.reads >= 5, 'the reader kept reading');
      // The flooder ignores Retry-After: past 16 refusals within one (a second here), its 429s are held until
      // the Retry-After ends, so it draws at most 1 + 16 + one per lane a second (thousands without the hold).
      assert.ok(f.flooder429 <= 25 * 5, `the flooder's 429s were held: ${f.flooder429} in 4 s`);
      // The aim is a reader p99 < 10 ms (bench:service measures it with the service, the flooder and the reader
      // each in a thread of their own); here the reader and the service share one event loop, and a p99 of 16
      // reads is their slowest one: one pause of the collector decides it (47 ms flooded against 3 ms quiet in
      // one CI run, 25-129 ms under load). What the test holds is what issue 28 fixed: before it, a flood
      // stalled every reader (930 ms median, 1.5 s max against 6.8 ms). The median must stay within 10x the
      // quiet one (or 10 ms), and no read may take a quarter of a second.
      assert.ok(
        f.flooded.p50 < Math.max(10, 10 * f.quiet.p50),
        `reader p50 ${f.flooded.p50} ms flooded, ${f.quiet.p50} ms quiet`,
      );
      assert.ok(f.flooded.p99 < 250, `reader p99 ${f.flooded.p99} ms flooded, ${f.quiet.p99} ms quiet`);
      assert.ok(f.dbGrowthMiB <= f.dbQuotaMiB, `database grew ${f.dbGrowthMiB} MiB, quota ${f.dbQuotaMiB} MiB`);
      // RSS is the whole mocha process's (every test file shares it, and the collector runs when it likes): 64 MiB
      // held alone, 73 MiB once in a full run. The attack this guards against grew it by 520 MB.
      assert.ok(f.rssGrowthMiB < 128, `RSS grew ${f.rssGrowthMiB} MiB`);
    } finally {
      await service.close();
      dir.removeCallback();
    }
  });
});
