// The firmware's own code on XS, in every `npm test` (`npm run test:firmware`,
// after `npm run build`): targets/moddable/main.ts and its adapters run in an
// XS worker on fakes of the Moddable host modules (test/xs/firmware/), against
// the local service (build/host-sim/service, port 0) over real TCP. No Moddable
// SDK is needed. Scenarios:
// - the SDK's failure modes one by one: refused (Linux: "write failed" thrown
//   in the callback; ESP32: an error callback), reset mid-answer, a malformed
//   status line, WebSocket refused and reset. The adapters turn each into an
//   ordinary failure; the bare fake `http` aborts, as the SDK does;
// - states arrive, desired round trip, outage (service stopped 20 s and
//   restarted), boot offline from the cached configuration.
// Prints the flash writes it counted; exits non-zero on any failure.
// FIRMWARE_LOG=1 shows the firmware's log; arguments run only the cases whose
// name contains one of them (the service scenarios depend on each other).
import { strict as assert } from 'node:assert';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { emptyHeap, FirmwareRun, firmwareScript, linConfig } from './firmware-host.mjs';

const root = resolve(fileURLToPath(new URL('../..', import.meta.url)));
const { startService } = await import(join(root, 'build', 'host-sim', 'service', 'index.js'));
const manifest = JSON.parse(readFileSync(join(root, 'manifest.json'), 'utf8'));
const fixture = join(root, 'host-sim', 'service', 'fixtures', 'demo.json');
const ADMIN = { authorization: 'Bearer admin-token-demo' };
const PIN_CHANNELS = ['temperature', 'battery', 'door', 'relay', 'dimmer'];

const scratch = mkdtempSync(join(tmpdir(), 'dds-firmware-xs-'));
const clock = { wallMs: Date.now() };
const figures = {};

/** A TCP server on port 0 that answers every connection with `behave(socket)`; `close` ends them all. */
async function rawServer(behave) {
  const open = new Set();
  const server = createServer((socket) => {
    open.add(socket);
    socket.on('close', () => open.delete(socket));
    behave(socket);
  });
  await new Promise((done) => server.listen(0, '127.0.0.1', done));
  return {
    port: server.address().port,
    close: () => {
      for (const socket of open) socket.destroy();
      return new Promise((done) => server.close(done));
    },
  };
}

/** A port nothing listens on. */
async function closedPort() {
  const s = await rawServer((socket) => socket.destroy());
  await s.close();
  return s.port;
}

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

function assertHealthy(run) {
  assert.equal(run.aborted, undefined, `the firmware aborted: ${run.aborted}`);
  const aborts = run.logs.filter((l) => /unhandled|abort/i.test(l));
  assert.deepEqual(aborts, [], 'no abort in the log');
}

// --- the failure modes, one adapter call each ---------------------------

async function adapterRun(flavor) {
  const run = new FirmwareRun({ flavor, clock });
  await run.start(true);
  return run;
}

async function result(run, tag, limitMs = 15_000) {
  assert.ok(await run.until(() => run.results.some((r) => r.tag === tag), limitMs), `no result for ${tag}`);
  return run.results.filter((r) => r.tag === tag);
}

const failureModes = [
  [
    'lin: a refused connection (write failed in the callback) rejects the request with network',
    async () => {
      const run = await adapterRun('lin');
      try {
        await run.evaluate(`__fw.request('r', 'http://127.0.0.1:${await closedPort()}/api', 'POST', '{"a":1}')`);
        const [r] = await result(run, 'r');
        assert.equal(r.code, 'network', JSON.stringify(r));
        assert.match(r.error, /write failed/);
        assertHealthy(run);
      } finally {
        await run.stop();
      }
    },
  ],
  [
    'lin: the bare fake http module aborts on a refused connection, as the SDK does',
    async () => {
      const run = await adapterRun('lin');
      try {
        await run.evaluate(`__fw.rawRequest('raw', '127.0.0.1', ${await closedPort()})`);
        await run.until(() => run.aborted !== undefined, 5_000).catch(() => undefined);
        assert.match(String(run.aborted), /write failed/);
      } finally {
        await run.stop();
      }
    },
  ],
  [
    'esp32: a refused connection (error callback) rejects the request with network',
    async () => {
      const run = await adapterRun('esp32');
      try {
        await run.evaluate(`__fw.request('r', 'http://127.0.0.1:${await closedPort()}/', 'GET')`);
        const [r] = await result(run, 'r');
        assert.equal(r.code, 'network', JSON.stringify(r));
        assertHealthy(run);
      } finally {
        await run.stop();
      }
    },
  ],
  [
    'a connection reset in the middle of the answer rejects with network',
    async () => {
      const server = await rawServer((socket) =>
        socket.once('data', () => {
          socket.write('HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n{"partial":');
          setImmediate(() => socket.resetAndDestroy());
        }),
      );
      for (const flavor of ['lin', 'esp32']) {
        const run = await adapterRun(flavor);
        try {
          await run.evaluate(`__fw.request('r', 'http://127.0.0.1:${server.port}/', 'GET')`);
          const [r] = await result(run, 'r');
          assert.equal(r.code, 'network', `${flavor}: ${JSON.stringify(r)}`);
          assertHealthy(run);
        } finally {
          await run.stop();
        }
      }
      await server.close();
    },
  ],
  [
    'a malformed status line (thrown in the SDK callback) rejects with network',
    async () => {
      const server = await rawServer((socket) => socket.once('data', () => socket.end('HELLO\r\n\r\n')));
      const run = await adapterRun('lin');
      try {
        await run.evaluate(`__fw.request('r', 'http://127.0.0.1:${server.port}/', 'GET')`);
        const [r] = await result(run, 'r');
        assert.equal(r.code, 'network', JSON.stringify(r));
        assert.match(r.error, /unexpected status format/);
        assertHealthy(run);
      } finally {
        await run.stop();
        await server.close();
      }
    },
  ],
  [
    'a server that accepts and never answers: the request times out (10 s virtual)',
    async () => {
      const server = await rawServer(() => undefined);
      const run = await adapterRun('lin');
      try {
        await run.evaluate(`__fw.request('r', 'http://127.0.0.1:${server.port}/', 'GET')`);
        const [r] = await result(run, 'r', 30_000);
        assert.equal(r.code, 'timeout', JSON.stringify(r));
        assertHealthy(run);
      } finally {
        await run.stop();
        await server.close();
      }
    },
  ],
  [
    'WebSocket refused (lin and esp32) closes the connection with a reason',
    async () => {
      const port = await closedPort();
      for (const flavor of ['lin', 'esp32']) {
        const run = await adapterRun(flavor);
        try {
          await run.evaluate(`__fw.webSocket('w', 'ws://127.0.0.1:${port}/hub', 'x')`);
          const events = await result(run, 'w');
          assert.equal(events.at(-1).event, 'close', `${flavor}: ${JSON.stringify(events)}`);
          assertHealthy(run);
        } finally {
          await run.stop();
        }
      }
    },
  ],
  [
    'WebSocket: the upgrade accepted, then the connection reset: closed with a reason',
    async () => {
      const server = await rawServer((socket) =>
        socket.once('data', () => {
          socket.write(
            'HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n' +
              'Sec-WebSocket-Accept: x\r\n\r\n',
          );
          socket.write(Buffer.from([0x81, 2, 0x68, 0x69]));
          setTimeout(() => socket.resetAndDestroy(), 20);
        }),
      );
      const run = await adapterRun('lin');
      try {
        await run.evaluate(`__fw.webSocket('w', 'ws://127.0.0.1:${server.port}/hub', 'x')`);
        assert.ok(await run.until(() => run.results.some((r) => r.event === 'close'), 15_000));
        const events = run.results.map((r) => r.event);
        assert.deepEqual(events.slice(0, 2), ['open', 'message'], JSON.stringify(run.results));
        assertHealthy(run);
      } finally {
        await run.stop();
        await server.close();
      }
    },
  ],
];

const provisioning = [
  [
    'an esp32 image has no token: the agent does not start and says how to provision it',
    async () => {
      const run = new FirmwareRun({ flavor: 'esp32', clock });
      try {
        await run.start(false, { ...manifest.config, serviceUrl: `http://127.0.0.1:${await closedPort()}` });
        await run.runFor(1_000);
        assert.ok(
          run.logs.some((l) => /cannot start: .*token/.test(l)),
          run.logs.join('\n'),
        );
        assert.ok(run.logs.some((l) => l.includes('Preference.set("config"')));
        assert.ok(!run.logs.some((l) => l.includes('agent booting')));
        assertHealthy(run);
      } finally {
        await run.stop();
      }
    },
  ],
  [
    'the token provisioned into preferences (domain config) starts the agent',
    async () => {
      const flash = new Map([['config\u0000token', { value: 'device-token-demo-001' }]]);
      const run = new FirmwareRun({ flavor: 'esp32', clock, flash });
      try {
        await run.start(false, { ...manifest.config, serviceUrl: `http://127.0.0.1:${await closedPort()}` });
        await run.runFor(5_000);
        assert.ok(
          run.logs.some((l) => l.includes('agent booting')),
          run.logs.join('\n'),
        );
        assert.ok(
          run.logs.some((l) => /configuration not read; retrying/.test(l)),
          run.logs.join('\n'),
        );
        assert.ok(!run.logs.some((l) => l.includes('device-token-demo-001')), 'the token is never logged');
        assertHealthy(run);
      } finally {
        await run.stop();
      }
    },
  ],
];

// --- the firmware against the local service -----------------------------

let svc;
let port;
let online;
const scenarios = [
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
        assertHealthy(run);
      } finally {
        await run.stop();
        await svc.close();
      }
    },
  ],
];

let passed = 0;
const failures = [];
const filters = process.argv.slice(2);
async function runAll(title, list) {
  console.log(`  ${title}`);
  for (const [name, fn] of list) {
    if (filters.length > 0 && !filters.some((f) => name.includes(f))) continue;
    try {
      await fn();
      passed++;
      console.log(`    ✔ ${name}`);
    } catch (e) {
      failures.push({ name, error: e });
      console.log(`    ✗ ${name}`);
    }
  }
}

const started = Date.now();
try {
  const code = await firmwareScript();
  console.log(
    `firmware on XS (xsnap): bundle ${(code.length / 1024).toFixed(0)} KiB, fakes of the Moddable host modules`,
  );
  await runAll('the SDK failure modes through the adapters', failureModes);
  await runAll('provisioning', provisioning);
  await runAll('the firmware against the local service', scenarios);
} finally {
  await online?.stop();
  await svc?.close().catch(() => undefined);
  rmSync(scratch, { recursive: true, force: true });
}
failures.forEach((f, i) =>
  console.log(`\n${i + 1}) ${f.name}\n   ${String(f.error?.stack ?? f.error).replace(/\n/g, '\n   ')}`),
);
const perSecond = (f) => (f === undefined ? undefined : +((f.count * 1000) / f.virtualMs).toFixed(2));
console.log(
  `\nflash writes: online ${figures.flashOnline?.count} (${figures.flashOnline?.bytes} B) in ` +
    `${figures.flashOnline?.virtualMs} virtual ms (${perSecond(figures.flashOnline)}/s); ` +
    `outage ${figures.flashOutage?.count} (${figures.flashOutage?.bytes} B) in 20 s (${perSecond(figures.flashOutage)}/s)`,
);
if (figures.liveHeap !== undefined) {
  const h = figures.liveHeap;
  console.log(
    `live heap of the running firmware (demo device, hub up; empty xsnap subtracted): ${h.slots} slots, ` +
      `${h.snapshotBytes} B as a snapshot (64-bit)`,
  );
}
console.log(`firmware XS run: ${Date.now() - started} ms`);
console.log(`firmware XS: ${passed} passed, ${failures.length} failed`);
console.log(JSON.stringify(figures));
process.exit(failures.length > 0 ? 1 : 0);
