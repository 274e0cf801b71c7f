/** The outbox through the agent: offline, restart, overflow, auth failures, unknown wall time. */
import { FakeClock } from '../../fakes/fake-clock.js';
import { FakeHttp } from '../../fakes/fake-http.js';
import { FakeStore } from '../../fakes/fake-store.js';
import { assert } from '../../support/assert.js';
import { ch, world } from './harness.js';

const counter = (pin: number) => ch('count', 'analogInput', { pin, scanInterval: 100, transmitEvents: [] });

describe('agent: offline outbox', () => {
  it('boots offline from the cached configuration and delivers everything in order, once', async () => {
    const store = new FakeStore();
    const first = world({ store, channels: [counter(1)] });
    await first.agent.start();
    first.agent.stop();
    const w = world({ store, channels: [] });
    w.http.offline = true;
    await w.agent.start();
    for (let i = 1; i <= 30; i++) {
      w.pins.analog.set(1, i);
      await w.clock.advanceAsync(100);
    }
    assert.ok(w.agent.counters.queued >= 20, `queued ${w.agent.counters.queued}`);
    assert.ok(w.agent.counters.failures >= 1);
    w.http.offline = false;
    await w.clock.advanceAsync(6000);
    const values = w.http.statesOf('count.reported').map((s) => s.value as number);
    const distinct = values.filter((v, i) => i === 0 || v !== values[i - 1]);
    assert.deepEqual(
      distinct,
      Array.from({ length: 30 }, (_, i) => i + 1),
      'in order',
    );
    const stamps = w.http.statesOf('count.reported').map((s) => s.timestamp);
    assert.equal(new Set(stamps).size, stamps.length, 'none twice');
    assert.ok(
      stamps.every((t, i) => i === 0 || t > stamps[i - 1]!),
      'timestamps ascend',
    );
    assert.equal(w.agent.counters.queued, 0);
    assert.equal(w.agent.counters.dropped, 0);
    w.agent.stop();
  });

  it('drops the oldest when the outbox bound is reached, counts them, and keeps running', async () => {
    const w = world({
      channels: [counter(1)],
      agent: { outbox: { maxRecords: 20 }, batch: { maxRecords: 5, maxBytes: 16384, maxAgeMs: 1000 } },
    });
    await w.agent.start(); // config read, then offline
    w.http.offline = true;
    for (let i = 1; i <= 60; i++) {
      w.pins.analog.set(1, i);
      await w.clock.advanceAsync(100);
    }
    const c = w.agent.counters;
    assert.ok(c.dropped >= 35, `dropped ${c.dropped}`);
    assert.ok(c.queued <= 20);
    w.http.offline = false;
    await w.clock.advanceAsync(6000);
    const values = w.http.statesOf('count.reported').map((s) => s.value as number);
    assert.ok(values[0]! >= 30, `oldest dropped, first delivered ${values[0]}`);
    assert.ok(values.includes(60) && values.every((v, i) => i === 0 || v >= values[i - 1]!));
    assert.equal(w.logger.find('warn', 'outbox: full').length > 0, true);
    w.agent.stop();
  });

  it('a new agent on the same store delivers what the dropped one had queued', async () => {
    const store = new FakeStore();
    const http = new FakeHttp();
    const a = world({ store, http, channels: [counter(1)] });
    await a.agent.start();
    http.offline = true;
    for (let i = 1; i <= 12; i++) {
      a.pins.analog.set(1, i);
      await a.clock.advanceAsync(100);
    }
    a.agent.flush();
    const queued = a.agent.counters.queued;
    assert.ok(queued >= 12);
    // Offline, closed batches reach the store within persistDelayMs (5 s); a
    // power cut before that loses them (docs/agent.md, "Flash and power cuts").
    await a.clock.advanceAsync(5000);
    // The process dies: no stop(), its timers never fire again.
    http.offline = false;
    const b = world({ store, http, clock: new FakeClock(a.clock.wallMs() + 5000) });
    await b.agent.start();
    await b.clock.advanceAsync(100);
    const values = http.statesOf('count.reported').map((s) => s.value);
    for (let i = 1; i <= 12; i++) assert.ok(values.includes(i), `value ${i} delivered`);
    b.agent.stop();
  });

  it('stop() writes the batches it closes for the next run instead of also sending them (each record once)', async () => {
    const store = new FakeStore();
    const http = new FakeHttp();
    const a = world({ store, http, channels: [counter(1)] });
    await a.agent.start();
    for (let i = 11; i <= 15; i++) {
      a.pins.analog.set(1, i);
      await a.clock.advanceAsync(100);
    }
    const sentBefore = http.statesOf('count.reported').length;
    a.agent.stop(); // the open batch (under 1 s old) closes now
    await a.clock.advanceAsync(0);
    assert.equal(http.statesOf('count.reported').length, sentBefore, 'nothing sent by stop()');
    const b = world({ store, http, clock: new FakeClock(a.clock.wallMs() + 1000) });
    await b.agent.start();
    await b.clock.advanceAsync(100);
    b.agent.stop();
    const records = http.statesOf('count.reported').map((s) => `${String(s.value)}@${String(s.timestamp)}`);
    assert.equal(new Set(records).size, records.length, `no record delivered twice: ${records.join(' ')}`);
    for (let i = 11; i <= 15; i++)
      assert.ok(
        records.some((r) => r.startsWith(`${i}@`)),
        `value ${i} delivered`,
      );
  });

  it('does not retry 401 blindly, and drops a batch the service refuses as malformed', async () => {
    const w = world({ channels: [counter(1)], agent: { authRetryMs: 60000 } });
    await w.agent.start();
    w.http.writeStatus = 401;
    await w.clock.advanceAsync(10000);
    const attempts = w.http.writeRequests;
    assert.equal(attempts, 1, 'one attempt, then a long wait');
    assert.equal(w.logger.find('error', 'token refused').length, 1);
    w.http.writeStatus = 400;
    await w.clock.advanceAsync(60000);
    assert.ok(w.agent.counters.rejected > 0);
    w.http.writeStatus = undefined;
    await w.clock.advanceAsync(2000);
    assert.ok(w.http.states.length > 0);
    w.agent.stop();
  });

  it('holds samples until the wall time is known, then stamps them with their true time', async () => {
    const w = world({ channels: [ch('door', 'digitalInput', { pin: 4, transmitEvents: [{ type: 'change' }] })] });
    await w.agent.start(); // caches the configuration
    w.agent.stop();
    w.http.offline = true;
    const clock = new FakeClock(0); // the board reboots in 1970
    const v = world({ clock, store: w.store, http: w.http });
    await v.agent.start();
    await clock.advanceAsync(5000);
    assert.equal(v.agent.counters.held, 1);
    assert.equal(w.http.states.length, 0);
    w.http.offline = false;
    w.http.date = 'Thu, 01 Jan 2026 00:00:10 GMT';
    await v.agent.reloadConfig();
    await clock.advanceAsync(1100);
    const door = w.http.statesOf('door.reported');
    assert.equal(door.length, 1);
    // sampled at monotonic 0; the Date header (+500 ms centring) was seen at monotonic 5000.
    assert.equal(door[0]!.timestamp, Date.UTC(2026, 0, 1, 0, 0, 5, 500) / 1000);
    assert.ok(door.every((s) => s.timestamp >= 1577836800));
    v.agent.stop();
  });
});

describe('agent: a failing store', () => {
  it('keeps sampling, holds the batches in RAM and delivers them all when the store refuses writes', async () => {
    const w = world({ channels: [counter(1)] });
    await w.agent.start();
    w.store.failWrites = true;
    w.http.offline = true;
    for (let i = 1; i <= 15; i++) {
      w.pins.analog.set(1, i);
      await w.clock.advanceAsync(100);
    }
    await w.clock.advanceAsync(6000);
    // The batches stay in RAM: nothing is lost while the device keeps power.
    assert.equal(w.agent.counters.lostToStore, 0);
    assert.equal(w.agent.counters.dropped, 0);
    assert.equal(w.logger.find('warn', 'store write failed').length, 1, 'warned once');
    w.store.failWrites = false;
    w.http.offline = false;
    const sampled = w.agent.counters.sampled;
    await w.clock.advanceAsync(20000); // past the retry back-off (1 s .. 60 s, full jitter)
    assert.ok(w.agent.counters.sampled > sampled, 'still sampling');
    const values = w.http.statesOf('count.reported').map((s) => s.value);
    for (let i = 1; i <= 15; i++) assert.ok(values.includes(i), `value ${i} delivered`);
    w.agent.stop();
  });
});
