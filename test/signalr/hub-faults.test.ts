/**
 * Our hub client against the local hub's connection faults (issue 4): dropped
 * sockets, Close with and without allowReconnect, a silent server, a refused
 * token. The client's timers run on a FakeClock, so the test decides when
 * timeouts and backoffs elapse; bytes travel over real loopback sockets.
 */
import assert from 'node:assert/strict';
import { startService, type RunningService } from '../../host-sim/service/index.js';
import { HubAgentLink } from '../../src/signalr/agent-link.js';
import { demo, demoFixture, loopbackClient, writeStates, type LoopbackClient } from './support/loopback.js';
import { RecordingSink } from './support/recording-sink.js';

describe('signalr against the local hub: connection faults', () => {
  let service: RunningService;
  let c: LoopbackClient;
  let sink: RecordingSink;
  let link: HubAgentLink;

  beforeEach(async () => {
    service = await startService({ fixture: demoFixture });
    c = loopbackClient(service.url, { authRetryMs: 600000 });
    sink = new RecordingSink();
    link = new HubAgentLink(c.client, sink, c.logger, { deviceUid: demo.device });
    c.client.start();
    await c.until('connected');
  });

  afterEach(async () => {
    c.client.stop();
    link.close();
    await service.close();
  });

  /** Waits for the backoff, lets it elapse on the fake clock, and waits for the reconnection. */
  async function reconnects(): Promise<void> {
    await c.until('waiting');
    const connectedAgain = c.until('connected');
    c.clock.advance(1000);
    await connectedAgain;
  }

  it('reconnects after dropAll, resyncs, and receives what was written meanwhile', async () => {
    await sink.until(() => sink.resyncs === 1);
    service.hub.dropAll();
    await c.until('waiting');
    await writeStates(service.url, demo.admin, demo.deviceKey, [{ channel: 'relay.desired', value: true }]);
    await reconnects();
    await sink.until(() => sink.resyncs === 2);
    assert.equal(service.hub.connectionCount(), 1);
    const applied = sink.applied.length;
    await writeStates(service.url, demo.admin, demo.deviceKey, [{ channel: 'relay.desired', value: false }]);
    await sink.until(() => sink.applied.length > applied);
    assert.equal(sink.applied.at(-1)?.value, false);
    c.logger.assertNoErrors();
  });

  it('Close with allowReconnect reconnects', async () => {
    service.hub.closeAll({ allowReconnect: true, error: 'Server is restarting' });
    await reconnects();
    assert.equal(service.hub.connectionCount(), 1);
    c.logger.assertNoErrors();
  });

  it('Close without allowReconnect stops and reports why', async () => {
    const stopped = new Promise<string>((resolve) =>
      c.client.onStateChange((kind, error) => kind === 'stopped' && resolve(error?.message ?? '')),
    );
    service.hub.closeAll({ allowReconnect: false, error: 'Device disabled' });
    assert.match(await stopped, /Device disabled/);
    c.clock.advance(600000);
    assert.equal(c.client.status, 'stopped');
    assert.equal(c.logger.find('error', 'hub: stopped').length, 1);
  });

  it('declares a silent server gone after the server timeout, and reconnects once it answers again', async () => {
    service.hub.faults.silent = true;
    c.clock.advance(29999);
    assert.equal(c.client.status, 'connected');
    c.clock.advance(1);
    await c.until('waiting');
    service.hub.faults.silent = false;
    const connectedAgain = c.until('connected');
    c.clock.advance(1000);
    await connectedAgain;
    c.logger.assertNoErrors();
  });

  it('a silent server during the handshake fails the attempt on the handshake timeout', async () => {
    service.hub.faults.silent = true;
    service.hub.dropAll();
    await c.until('waiting');
    const handshaking = c.until('handshaking');
    c.clock.advance(1000);
    await handshaking;
    // Let the socket open and the handshake go out before the timeout elapses.
    await new Promise<void>((resolve) => setImmediate(resolve));
    c.clock.advance(15000);
    await c.until('waiting');
    assert.equal(
      c.logger.find('info', 'hub: waiting').at(-1)?.fields?.['reason'],
      'hub: no handshake answer in 15000 ms',
    );
  });

  for (const status of [401, 403] as const) {
    it(`refused with ${status}: reports an authentication failure and does not retry the same token`, async () => {
      service.hub.faults.refuseWith = status;
      service.hub.dropAll();
      await c.until('waiting');
      const refused = new Promise<void>((resolve) =>
        c.client.onStateChange((kind, error) => kind === 'waiting' && error?.code === 'auth' && resolve()),
      );
      c.clock.advance(1000);
      await refused;
      assert.equal(c.logger.find('error', 'authentication refused').length, 1);
      service.hub.faults.refuseWith = null;
      for (let i = 0; i < 5; i++) {
        const waitingAgain = new Promise<void>((resolve) => {
          const off = c.client.onStateChange((kind) => kind === 'waiting' && (off(), resolve()));
        });
        c.clock.advance(1000);
        await waitingAgain;
      }
      assert.equal(service.hub.connectionCount(), 0, 'the refused token is not tried again yet');
      c.token.value = 'device-token-demo-002';
      const connectedAgain = c.until('connected');
      c.clock.advance(1000);
      await connectedAgain;
      assert.equal(service.hub.connectionCount(), 1);
    });
  }
});
