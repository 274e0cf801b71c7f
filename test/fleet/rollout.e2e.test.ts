/**
 * The rollout scenario at a small size (host-sim/fleet/rollout.ts), against
 * the local service in real time: twelve real agents, each with the real
 * updater on simulated boot slots, download a signed image from the service's
 * firmware folder through a bound of 2 downloads at once, verify it, restart
 * into it, confirm it on trial and report the new version; two of them were
 * given a signature by another key and end `failed EKEYREJECTED` on the old
 * version. Records keep flowing through the restarts: every one is read back
 * from the service, none lost, none stored twice.
 */
import { runRollout, fromVersion, toVersion } from '../../host-sim/fleet/rollout.js';
import { TimerWheel } from '../../host-sim/fleet/timer-wheel.js';
import { NodeClock } from '../../targets/node/clock.js';
import { FetchHttp } from '../../targets/node/http.js';
import { NodeWebSocketFactory } from '../../targets/node/websocket.js';
import { assert } from '../support/assert.js';

describe('fleet rollout against the local service', function () {
  this.timeout(120_000);

  it('12 devices: 10 confirmed on the new version, 2 failed naming why, the bound held, no record lost', async () => {
    const { figures, rollout, fleet } = await runRollout({
      devices: 12,
      imageBytes: 40 * 1024 + 123,
      atS: 2,
      durationS: 90,
      maxDownloads: 2,
      wrongKeyDevices: 2,
      clock: new TimerWheel(new NodeClock()),
      http: new FetchHttp(),
      sockets: new NodeWebSocketFactory(),
      rampS: 0.5,
      drainS: 30,
    });
    assert.equal(rollout.written, 12);
    assert.equal(rollout.writeErrors, 0);
    assert.equal(rollout.confirmed, 10, JSON.stringify(rollout));
    assert.deepEqual(rollout.others, { [`${fromVersion} failed EKEYREJECTED`]: 2 });
    assert.equal(rollout.unsettled, 0);
    // Every chunk request held a slot: never more than the bound at once, and the bound was reached.
    assert.equal(rollout.downloads.bound, 2);
    assert.equal(rollout.downloads.peak, 2, JSON.stringify(rollout.downloads));
    // 11 chunks of 4 KiB per image, 12 images; refused requests are retried, not counted here.
    assert.ok(rollout.downloads.served >= 12 * 11, JSON.stringify(rollout.downloads));
    assert.equal(rollout.restarts, 10, 'each confirmed device restarted once into the new image');
    assert.equal(rollout.bytesWritten, 12 * (40 * 1024 + 123));
    assert.ok(rollout.allConfirmedS === null, 'two devices never confirm: there is no time to all confirmed');
    for (const [i, device] of fleet.devices.entries()) {
      assert.equal(device.slots?.version, i < 2 ? fromVersion : toVersion, device.member.key);
    }
    const d = figures.delivery;
    assert.ok(d.reported > 12 * 4 * 3, `reported ${d.reported}`);
    assert.equal(d.stored, d.reported, 'stored = reported');
    assert.deepEqual([d.lost, d.duplicates, d.dropped, d.rejected, d.undelivered, d.readErrors], [0, 0, 0, 0, 0, 0]);
    assert.ok(d.exactlyOnce);
  });
});
