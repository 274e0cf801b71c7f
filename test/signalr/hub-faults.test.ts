/**
 * Our hub client against the local hub's connection faults (docs/realtime.md): dropped
 * sockets, Close with and without allowReconnect, a silent server, a refused
 * token. The client's timers run on a FakeClock, so the test decides when
 * timeouts and backoffs elapse; bytes travel over real loopback sockets.
 */
import assert from 'node:assert/strict';
import { useHubSession } from './support/hub-session.js';
import { demo, writeStates } from './support/loopback.js';
import { RecordingSink } from './support/recording-sink.js';

describe('signalr against the local hub: connection faults', () => {
  const h = useHubSession({ sink: () => new RecordingSink(), client: { authRetryMs: 600000 }, connect: true });

  /** Waits for the backoff, lets it elapse on the fake clock, and waits for the reconnection. */
  async function reconnects(): Promise<void> {
    await h.c.until('waiting');
    const connectedAgain = h.c.until('connected');
    h.c.clock.advance(1000);
    await connectedAgain;
  }

  it('reconnects after dropAll, resyncs, and receives what was written meanwhile', async () => {
    await h.sink.until(() => h.sink.resyncs === 1);
    h.service.hub.dropAll();
    await h.c.until('waiting');
    await writeStates(h.service.url, demo.admin, demo.deviceKey, [{ channel: 'relay.desired', value: true }]);
    await reconnects();
    await h.sink.until(() => h.sink.resyncs === 2);
    assert.equal(h.service.hub.connectionCount(), 1);
    const applied = h.sink.applied.length;
    await writeStates(h.service.url, demo.admin, demo.deviceKey, [{ channel: 'relay.desired', value: false }]);
    await h.sink.until(() => h.sink.applied.length > applied);
    assert.equal(h.sink.applied.at(-1)?.value, false);
    h.c.logger.assertNoErrors();
  });

  it('Close with allowReconnect reconnects', async () => {
    h.service.hub.closeAll({ allowReconnect: true, error: 'Server is restarting' });
    await reconnects();
    assert.equal(h.service.hub.connectionCount(), 1);
    h.c.logger.assertNoErrors();
  });

  it('Close without allowReconnect stops and reports why', async () => {
    const stopped = new Promise<string>((resolve) =>
      h.c.client.listen((kind, error) => kind === 'stopped' && resolve(error?.message ?? '')),
    );
    h.service.hub.closeAll({ allowReconnect: false, error: 'Device disabled' });
    assert.match(await stopped, /Device disabled/);
    h.c.clock.advance(600000);
    assert.equal(h.c.client.status, 'stopped');
    assert.equal(h.c.logger.find('error', 'hub: stopped').length, 1);
  });

  it('declares a silent server gone after the server timeout, and reconnects once it answers again', async () => {
    h.service.hub.faults.silent = true;
    h.c.clock.advance(29999);
    assert.equal(h.c.client.status, 'connected');
    h.c.clock.advance(1);
    await h.c.until('waiting');
    h.service.hub.faults.silent = false;
    const connectedAgain = h.c.until('connected');
    h.c.clock.advance(1000);
    await connectedAgain;
    h.c.logger.assertNoErrors();
  });

  it('a silent server during the handshake fails the attempt after serverTimeoutMs', async () => {
    h.service.hub.faults.silent = true;
    h.service.hub.dropAll();
    await h.c.until('waiting');
    const handshaking = h.c.until('handshaking');
    h.c.clock.advance(1000);
    await handshaking;
    // Let the socket open and the handshake go out before the timeout elapses.
    await new Promise<void>((resolve) => setImmediate(resolve));
    h.c.clock.advance(30000);
    await h.c.until('waiting');
    assert.equal(h.c.logger.find('warn', 'hub: waiting').at(-1)?.fields?.['reason'], 'hub: no handshake');
  });

  for (const status of [401, 403] as const) {
    it(`refused with ${status}: logs an authentication failure and waits authRetryMs before trying again`, async () => {
      h.service.hub.faults.refuseWith = status;
      h.service.hub.dropAll();
      await h.c.until('waiting');
      const refused = new Promise<void>((resolve) =>
        h.c.client.listen((kind, error) => kind === 'waiting' && error?.code === 'auth' && resolve()),
      );
      h.c.clock.advance(1000);
      await refused;
      assert.equal(h.c.logger.find('error', 'hub: waiting').length, 1);
      assert.match(
        String(h.c.logger.find('error', 'hub: waiting')[0]?.fields?.['reason']),
        new RegExp(`HTTP ${status}`),
      );
      h.service.hub.faults.refuseWith = null;
      h.c.clock.advance(599999);
      await new Promise<void>((resolve) => setImmediate(resolve));
      assert.equal(h.c.client.status, 'waiting', 'not tried again before authRetryMs');
      const connectedAgain = h.c.until('connected');
      h.c.clock.advance(1);
      await connectedAgain;
      assert.equal(h.service.hub.connectionCount(), 1);
    });
  }
});
