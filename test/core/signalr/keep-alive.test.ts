import { KeepAlive } from '../../../src/signalr/keep-alive.js';
import { FakeClock } from '../../fakes/fake-clock.js';
import { assert } from '../../support/assert.js';
import { harness } from './harness.js';

function setup(pingMs = 15000, timeoutMs = 30000) {
  const clock = new FakeClock();
  const events = { pings: [] as number[], timeouts: [] as number[] };
  const keepAlive: KeepAlive = new KeepAlive(
    clock,
    pingMs,
    timeoutMs,
    () => {
      events.pings.push(clock.monotonicMs());
      keepAlive.noteSent();
    },
    () => events.timeouts.push(clock.monotonicMs()),
  );
  keepAlive.start();
  return { clock, keepAlive, events };
}

describe('signalr/keep-alive', () => {
  it('pings every 15 s while nothing else is sent', () => {
    const { clock, keepAlive, events } = setup();
    for (let t = 0; t < 45000; t += 5000) {
      clock.advance(5000);
      keepAlive.noteReceived();
    }
    assert.deepEqual(events.pings, [15000, 30000, 45000]);
    assert.deepEqual(events.timeouts, []);
  });

  it('is driven by the last send: sends postpone the ping, receives do not', () => {
    const { clock, keepAlive, events } = setup();
    clock.advance(10000);
    keepAlive.noteSent();
    keepAlive.noteReceived();
    clock.advance(14999);
    assert.deepEqual(events.pings, []);
    clock.advance(1);
    assert.deepEqual(events.pings, [25000]);
  });

  it('declares the server gone after 30 s without receiving, once', () => {
    const { clock, keepAlive, events } = setup();
    clock.advance(20000);
    keepAlive.noteReceived();
    clock.advance(29999);
    assert.deepEqual(events.timeouts, []);
    clock.advance(1);
    assert.deepEqual(events.timeouts, [50000]);
    clock.advance(100000);
    assert.deepEqual(events.timeouts, [50000]);
  });

  it('takes its intervals from the options, and stop clears every timer', () => {
    const { clock, keepAlive, events } = setup(1000, 2500);
    clock.advance(2500);
    assert.deepEqual(events.pings, [1000, 2000]);
    assert.deepEqual(events.timeouts, [2500]);
    keepAlive.stop();
    assert.equal(clock.pending, 0);
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
