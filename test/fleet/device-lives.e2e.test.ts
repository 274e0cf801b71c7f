/**
 * The lives of one fleet device (host-sim/fleet/device.ts) against the local
 * service on loopback, in real time: a restart that an update asks for just as
 * the run ends (the device `not running` when sampling stops) is finished
 * before the drain, which then delivers the new life's records; nothing
 * restarts or samples after the drain, and every record the device counts as
 * reported is read back once, counted once.
 */
import { FleetDevice } from '../../host-sim/fleet/device.js';
import { generateFleetFixture } from '../../host-sim/fleet/generate.js';
import { FleetLink } from '../../host-sim/fleet/link.js';
import { CountingLogger } from '../../host-sim/fleet/meter.js';
import { parseRoster } from '../../host-sim/fleet/roster.js';
import { TimerWheel } from '../../host-sim/fleet/timer-wheel.js';
import { readBack } from '../../host-sim/fleet/verify.js';
import { startService, type RunningService } from '../../host-sim/service/index.js';
import { NodeClock } from '../../targets/node/clock.js';
import { FetchHttp } from '../../targets/node/http.js';
import { NodeWebSocketFactory } from '../../targets/node/websocket.js';
import { assert } from '../support/assert.js';

describe('a fleet device restarting as the run ends', function () {
  this.timeout(60_000);
  let service: RunningService | undefined;

  afterEach(async () => {
    await service?.close();
    service = undefined;
  });

  it('the restart finishes, the drain delivers the new life, nothing runs after it, every record counted once', async () => {
    const fixture = generateFleetFixture({ devices: 1, scanMs: 200 });
    service = await startService({ fixture });
    const member = parseRoster(JSON.stringify(fixture), 'fixture').members[0]!;
    const clock = new TimerWheel(new NodeClock());
    const http = new FetchHttp();
    const after = (ms: number): Promise<void> => new Promise((resolve) => clock.setTimer(resolve, ms));
    const originWallMs = clock.wallMs();
    const link = new FleetLink(http, new NodeWebSocketFactory(), clock, clock.monotonicMs(), 120);
    const device = new FleetDevice(member, {
      service: service.url,
      clock,
      link,
      logger: new CountingLogger(),
      updates: {
        version: '1.0.0',
        identify: () => undefined,
        check: () => {
          throw new Error('no image is installed here');
        },
      },
    });
    await device.start();
    await after(1500);
    // The updater asks for a restart (an installed image, a rollback), and in the same turn the run ends.
    device.slots!.restart();
    const undelivered = await device.drain(10_000);
    assert.equal(undelivered, 0);
    assert.equal(device.updateRestarts, 1, 'the restart asked for before the end was made');
    assert.equal(device.running, false, 'no life runs after the drain');
    const counted = device.counters();
    // Asked for after the end: skipped (the board is switched off before it restarts).
    device.slots!.restart();
    await after(1000);
    assert.equal(device.running, false);
    assert.equal(device.restartsAfterEnd, 1);
    assert.deepEqual(device.counters(), counted, 'nothing sampled or sent after the drain');
    const back = await readBack(http, service.url, member, originWallMs, clock.wallMs() + 5000, after);
    assert.ok(counted.reported >= 4 * 5, `reported ${counted.reported}: four channels at 5 Hz for 1.5 s`);
    assert.equal(back.stored, counted.reported, 'every record reported is read back');
    assert.equal(counted.sent, counted.reported, 'acknowledged once each, as counted');
    assert.equal(back.duplicates, 0);
  });
});
