/**
 * The keep-alive of a connected client (spec 4.8 Ping), run by the client's one
 * timer: a Ping when nothing was sent for `pingIntervalMs`, the server gone
 * after `serverTimeoutMs` without receiving anything.
 */
import type { FakeSocket } from '../../fakes/fake-websocket.js';
import { assert } from '../../support/assert.js';
import { harness, type Harness } from './harness.js';

/** Times (monotonic ms) at which the client sent a Ping, while `step` runs every `stepMs` until `untilMs`. */
async function pingTimes(
  h: Harness,
  socket: FakeSocket,
  untilMs: number,
  stepMs: number,
  step = (): void => undefined,
) {
  const times: number[] = [];
  let seen = 0;
  while (h.clock.monotonicMs() < untilMs) {
    await h.clock.advanceAsync(stepMs);
    const pings = socket.messages().filter((m) => m['type'] === 6).length;
    for (; seen < pings; seen++) times.push(h.clock.monotonicMs());
    step();
  }
  return times;
}

describe('signalr/keep-alive', () => {
  it('pings every 15 s while nothing else is sent', async () => {
    const h = harness();
    const socket = await h.connect();
    const times = await pingTimes(h, socket, 45000, 5000, () => socket.receiveRecords({ type: 6 }));
    assert.deepEqual(times, [15000, 30000, 45000]);
    assert.equal(h.client.status, 'connected');
  });

  it('is driven by the last send: sends postpone the ping, receives do not', async () => {
    const h = harness();
    const socket = await h.connect();
    await h.clock.advanceAsync(10000);
    void h.invoker.invoke('Hello', [], 60000).catch(() => undefined);
    socket.receiveRecords({ type: 6 });
    await h.clock.advanceAsync(14999);
    assert.deepEqual(socket.messages(), [{ type: 1, invocationId: '0', target: 'Hello', arguments: [] }]);
    await h.clock.advanceAsync(1);
    assert.deepEqual(socket.messages().at(-1), { type: 6 });
  });

  it('declares the server gone after 30 s without receiving, once', async () => {
    const h = harness();
    const socket = await h.connect();
    await h.clock.advanceAsync(20000);
    socket.receiveRecords({ type: 6 });
    await h.clock.advanceAsync(29999);
    assert.equal(h.client.status, 'connected');
    await h.clock.advanceAsync(1);
    assert.equal(h.client.status, 'waiting');
    assert.ok(socket.closedByClient);
    await h.clock.advanceAsync(100000);
    assert.equal(
      h.logger.find('warn', 'hub: waiting').filter((l) => /server silent/.test(String(l.fields?.['reason']))).length,
      1,
    );
  });

  it('takes its intervals from the options, and stop clears every timer', async () => {
    const h = harness({ pingIntervalMs: 1000, serverTimeoutMs: 2500 });
    const socket = await h.connect();
    const times = await pingTimes(h, socket, 2500, 500);
    assert.deepEqual(times, [1000, 2000]);
    assert.equal(h.client.status, 'waiting');
    h.client.stop();
    assert.equal(h.clock.pending, 0);
  });

  it('the client pings when idle and drops a silent server, then reconnects', async () => {
    const h = harness({ pingIntervalMs: 1000, serverTimeoutMs: 3000 });
    const socket = await h.connect();
    await h.clock.advanceAsync(1000);
    assert.deepEqual(socket.messages(), [{ type: 6 }]);
    socket.receiveRecords({ type: 6 });
    await h.clock.advanceAsync(2999);
    assert.equal(h.client.status, 'connected');
    await h.clock.advanceAsync(1);
    assert.equal(h.client.status, 'waiting');
    assert.ok(socket.closedByClient);
    await h.clock.advanceAsync(1000);
    assert.equal(h.sockets.sockets.length, 2);
  });
});
