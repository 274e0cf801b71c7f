/**
 * The fair-share scenario (bench/service/flood.ts, also case 5 of
 * `bench:service`) as a test, with a budget of 5 requests/s: one device token
 * floods property and state writes at its budget and meets 429s, while another
 * device's reads keep answering 200 quickly; RSS and the database grow within
 * their quotas. The service runs in this process, on a database file.
 */
import { strict as assert } from 'node:assert';
import { join } from 'node:path';
import tmp from 'tmp';
import { adminToken, benchFixture, deviceKey } from '../../bench/service/http.js';
import { runFlood } from '../../bench/service/flood.js';
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
        {
          url: service.url,
          adminToken,
          flooder: { key: deviceKey(1), token: `token-${deviceKey(1)}` },
          reader: { key: deviceKey(0), token: `token-${deviceKey(0)}` },
          dbPath,
          rss: async () => process.memoryUsage().rss,
        },
        4000,
        250, // the reader stays within the same budget: 4 reads a second
      );
      console.log(`      flood figures: ${JSON.stringify(f)}`);
      assert.ok(f.flooder429 > 0, 'the flooder met its budget');
      assert.ok(f.flooderOk > 0 && f.flooderOther === 0);
      assert.ok(f.flooded.reads >= 5, 'the reader kept reading');
      // The aim is a reader p99 < 10 ms (bench:service measures it with the service in its own thread). Here
      // the flood, the reader and the service share one event loop on a machine shared with other builds (load
      // average 24-35 while this was written; quiet p99s of 8-17 ms, flooded 25-129 ms, ratios 2.4-7.5): the
      // test bounds the flooded p99 by 10 ms or 10x the quiet one, which a service that stalls every reader
      // behind a flood (930 ms median against 6.8 ms before issue 28: a ratio over 100) fails.
      assert.ok(
        f.flooded.p99 < Math.max(10, 10 * f.quiet.p99),
        `reader p99 ${f.flooded.p99} ms flooded, ${f.quiet.p99} ms quiet`,
      );
      assert.ok(f.dbGrowthMiB <= f.dbQuotaMiB, `database grew ${f.dbGrowthMiB} MiB, quota ${f.dbQuotaMiB} MiB`);
      assert.ok(f.rssGrowthMiB < 64, `RSS grew ${f.rssGrowthMiB} MiB`);
    } finally {
      await service.close();
      dir.removeCallback();
    }
  });
});
