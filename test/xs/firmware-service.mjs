// The firmware-on-XS scenarios against the local service (build/host-sim/service,
// port 0, a database in a scratch folder): states arrive, desired round trip,
// a 20 s outage, a boot while the service is down, the pins-only firmware. They
// run in this order and share the service and the first firmware run.
import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { emptyHeap, FirmwareRun, linConfig } from './firmware-host.mjs';
import { assertHealthy, clock, figures, manifest, root } from './firmware-support.mjs';

const { startService } = await import(join(root, 'build', 'host-sim', 'service', 'index.js'));
const fixture = join(root, 'host-sim', 'service', 'fixtures', 'demo.json');
const ADMIN = { authorization: 'Bearer admin-token-demo' };
const PIN_CHANNELS = ['temperature', 'battery', 'door', 'relay', 'dimmer'];
const scratch = mkdtempSync(join(tmpdir(), 'dds-firmware-xs-'));

async function service(port = 0) {
  return startService({
    fixture,
    port,
    dbPath: join(scratch, 'service.db'),
    now: () => clock.wallMs,
    // The service's hub timers are real; the device's are virtual and run faster.
    hub: { pingIntervalMs: 200 },
  });
}

async function states(url, channel, sinceMs) {
  const query = `devices=demo-001&channels=${channel}&timeRangeStart=${sinceMs / 1000}`;
  const r = await fetch(`${url}/api/v1/states/read?${query}`, { headers: ADMIN });
  if (r.status !== 200) return [];
  return r.json();
}

async function lastStates(url) {
  const r = await fetch(`${url}/api/v1/states/read/last?device=demo-001`, { headers: ADMIN });
  if (r.status !== 200) return [];
  return (await r.json()).map((s) => ({ ...s, name: s.channel.slice(s.channel.indexOf(':') + 1) }));
}

const timestampMs = (s) => (typeof s.timestamp === 'number' ? s.timestamp * 1000 : Date.parse(s.timestamp));

let svc;
let port;
let online;
export const scenarios = [
  [
    'boots, reports its pin channels and connects to the hub',
    async () => {
      svc = await service();
      port = svc.port;
      online = new FirmwareRun({ flavor: 'lin', clock });
      await online.start(false, linConfig(manifest, { serviceUrl: svc.url }));
      const found = await online.until(async () => {
        const names = (await lastStates(svc.url)).map((s) => s.name);
        return PIN_CHANNELS.every((c) => names.includes(`${c}.reported`)) && svc.hub.connectionCount() > 0;
      }, 60_000);
      assert.ok(found, `states or hub missing; log:\n${online.logs.slice(-30).join('\n')}`);
      assert.ok(online.logs.some((l) => l.includes('channels configured')));
      figures.bootToStatesVirtualMs = online.nowMs;
      // The firmware's live heap once running (10 demo channels, hub connected), xsnap's empty machine subtracted.
      const [heap, empty] = [await online.liveHeap(), await emptyHeap()];
      figures.liveHeap = {
        slots: heap.slots - empty.slots,
        snapshotBytes: heap.snapshotBytes - empty.snapshotBytes,
      };
      assertHealthy(online);
    },
  ],
  [
    'applies a desired value written over HTTP (hub Notify) and reports it back',
    async () => {
      const startedMs = online.nowMs;
      const write = await fetch(`${svc.url}/api/v1/states/write`, {
        method: 'POST',
        headers: { ...ADMIN, 'content-type': 'application/json' },
        body: JSON.stringify({ device: 'demo-001', states: [{ channel: 'relay.desired', value: true }] }),
      });
      assert.equal(write.status, 200);
      const echoed = await online.until(
        async () => {
          const relay = (await lastStates(svc.url)).find((s) => s.name === 'relay.reported');
          return relay?.value === true;
        },
        30_000,
        50,
      );
      assert.ok(echoed, `relay.reported never true; log:\n${online.logs.slice(-30).join('\n')}`);
      assert.ok(
        online.logs.some((l) => l.includes('sim: digital pin 5 = 1')),
        'the relay pin was driven',
      );
      figures.desiredRoundTripVirtualMs = online.nowMs - startedMs;
      assertHealthy(online);
    },
  ],
  [
    'outage: the service stopped for 20 s and restarted; the records sampled meanwhile arrive',
    async () => {
      await online.runFor(5_000);
      // Kept alive: since its boot the firmware opened one HTTP connection and one hub connection.
      assert.equal(online.connects.length, 2, JSON.stringify(online.connects));
      const writesBefore = { ...online.flashWrites };
      const onlineMs = online.nowMs;
      figures.flashOnline = { ...writesBefore, virtualMs: onlineMs };
      await svc.close();
      const downAt = clock.wallMs;
      await online.runFor(20_000);
      const upAt = clock.wallMs;
      assertHealthy(online);
      assert.ok(
        online.logs.some((l) => /^warn /.test(l)),
        'the failed deliveries are logged as warnings',
      );
      figures.flashOutage = {
        count: online.flashWrites.count - writesBefore.count,
        bytes: online.flashWrites.bytes - writesBefore.bytes,
        virtualMs: 20_000,
      };
      svc = await service(port);
      const delivered = await online.until(
        async () => {
          const door = await states(svc.url, 'door.reported', downAt);
          return door.some((s) => timestampMs(s) > downAt + 1_000 && timestampMs(s) < upAt);
        },
        90_000,
        500,
      );
      assert.ok(delivered, `no door record of the outage delivered; log:\n${online.logs.slice(-30).join('\n')}`);
      assert.ok(await online.until(() => svc.hub.connectionCount() > 0, 60_000), 'the hub reconnects');
      await carriedByTwo(online);
      assertHealthy(online);
      await online.stop();
    },
  ],
  [
    'boots offline (esp32 failure modes) from the cached configuration and delivers once the service is up',
    async () => {
      await svc.close();
      const run = new FirmwareRun({ flavor: 'esp32', clock, flash: online.flash });
      try {
        const bootAt = clock.wallMs;
        await run.start(false, linConfig(manifest, { serviceUrl: `http://127.0.0.1:${port}` }));
        await run.runFor(15_000);
        const downUntil = clock.wallMs;
        assertHealthy(run);
        assert.ok(
          run.logs.some((l) => l.includes('starting from the cached configuration')),
          run.logs.slice(-20).join('\n'),
        );
        svc = await service(port);
        const delivered = await run.until(
          async () => {
            const door = await states(svc.url, 'door.reported', bootAt);
            return door.some((s) => timestampMs(s) > bootAt && timestampMs(s) < downUntil);
          },
          90_000,
          500,
        );
        assert.ok(delivered, `nothing sampled offline arrived; log:\n${run.logs.slice(-30).join('\n')}`);
        assert.ok(await run.until(() => svc.hub.connectionCount() > 0, 60_000), 'the hub connects');
        await carriedByTwo(run);
        assertHealthy(run);
      } finally {
        await run.stop();
        await svc.close();
      }
    },
  ],
  [
    'the pins-only firmware (main-pins.ts) reports its pin channels and names the configured features it leaves out',
    async () => {
      svc = await service();
      const run = new FirmwareRun({ flavor: 'lin', clock, firmware: 'pins' });
      try {
        const config = linConfig(manifest, { serviceUrl: svc.url, gnssPort: 2, modbusPort: 1 });
        await run.start(false, config);
        const found = await run.until(async () => {
          const names = (await lastStates(svc.url)).map((s) => s.name);
          return PIN_CHANNELS.every((c) => names.includes(`${c}.reported`)) && svc.hub.connectionCount() > 0;
        }, 60_000);
        assert.ok(found, `states or hub missing; log:\n${run.logs.slice(-30).join('\n')}`);
        for (const feature of ['gnss', 'modbus'])
          assert.ok(
            run.logs.some((l) => l.includes('feature not in this firmware') && l.includes(feature)),
            `no warning for ${feature}; log:\n${run.logs.join('\n')}`,
          );
        assert.ok(
          run.logs.some((l) => l.includes('channel rejected') && l.includes('no provider for modbus')),
          `modbus channels not reported unsupported; log:\n${run.logs.join('\n')}`,
        );
        assertHealthy(run);
      } finally {
        await run.stop();
        await svc.close();
      }
    },
  ],
  [
    'a refused token, an unknown device: one error line each, naming the fix; the firmware keeps running',
    async () => {
      svc = await service();
      const cases = [
        [{ token: 'not-a-token' }, 'config: token refused; set the right token and restart'],
        [{ deviceKey: 'no-such-device' }, 'config: device unknown; check the device key and restart'],
      ];
      try {
        for (const [overrides, line] of cases) {
          const run = new FirmwareRun({ flavor: 'lin', clock });
          try {
            await run.start(false, linConfig(manifest, { serviceUrl: svc.url, ...overrides }));
            // Over two of the long waits (5 min each): said once, not once per try.
            await run.runFor(11 * 60_000);
            const errors = run.logs.filter((l) => l.includes(line));
            assert.equal(errors.length, 1, `"${line}" once; log:\n${run.logs.slice(-20).join('\n')}`);
            assert.ok(!run.logs.some((l) => l.includes('not-a-token')), 'the token is never logged');
            assertHealthy(run);
          } finally {
            await run.stop();
          }
        }
      } finally {
        await svc.close();
      }
    },
  ],
];

/**
 * Once the service is back and everything delivered: 20 s (virtual) more carried by the connections already
 * open, one HTTP and one hub connection, and no new one.
 */
async function carriedByTwo(run) {
  await run.runFor(2_000);
  const opened = run.connects.length;
  await run.runFor(20_000);
  const open = [...run.sockets.values()].filter((s) => s.state === 'open').length;
  assert.equal(run.connects.length, opened, `new connections: ${JSON.stringify(run.connects.slice(opened))}`);
  assert.equal(open, 2, 'one HTTP and one hub connection open');
}

/** Stops what the scenarios left running and removes the scratch folder. */
export async function cleanup() {
  await online?.stop();
  await svc?.close().catch(() => undefined);
  rmSync(scratch, { recursive: true, force: true });
}
