/**
 * The hub's connection lifecycle (spec 4.8, decisions 7): pings every
 * pingIntervalMs, Close after clientTimeoutMs of silence, connection tokens
 * (unit), and upgrades outside the hub path. Real sockets, small intervals.
 */
import { strict as assert } from 'node:assert';
import WebSocket from 'ws';
import { ConnectionTokens } from '../../host-sim/service/hub/connection-tokens.js';
import { demo, startTestService, type TestService } from './helpers.js';
import { RawHubClient } from './raw-hub-client.js';

describe('service hub keep-alive', () => {
  let t: TestService;
  afterEach(async () => {
    await t.service.close();
  });

  it('pings every pingIntervalMs and closes after clientTimeoutMs of silence', async () => {
    t = await startTestService({ hub: { pingIntervalMs: 20, clientTimeoutMs: 150 } });
    const c = await RawHubClient.connect(t.service.url, demo.token1);
    await c.waitFor(() => c.ofType(6).length >= 2);
    await c.waitFor(() => c.closeCode !== undefined);
    assert.deepEqual(c.ofType(7), [{ type: 7, allowReconnect: true }]);
    assert.equal(t.service.hub.connectionCount(), 0);
  });

  it('keeps a connection open while the client sends pings', async () => {
    t = await startTestService({ hub: { pingIntervalMs: 20, clientTimeoutMs: 80 } });
    const c = await RawHubClient.connect(t.service.url, demo.token1);
    for (let i = 0; i < 8; i++) {
      const seen = c.ofType(6).length;
      await c.waitFor(() => c.ofType(6).length > seen);
      c.sendRecord({ type: 6 });
    }
    assert.equal(c.closeCode, undefined);
    assert.equal(t.service.hub.connectionCount(), 1);
    c.ws.terminate();
  });
});

describe('service hub connection tokens', () => {
  it('are single-use, bound, expiring, and bounded with evictions counted', () => {
    let nowMs = 0;
    const tokens = new ConnectionTokens(() => nowMs, 30_000, 3);
    const a = tokens.issue('access-a');
    assert.match(a, /^[A-Za-z0-9_-]{24}$/);
    assert.equal(tokens.redeem(a, 'access-a'), 'ok');
    assert.equal(tokens.redeem(a, 'access-a'), 'unknown');
    assert.equal(tokens.redeem(tokens.issue('access-a'), 'access-b'), 'other-token');
    const late = tokens.issue('access-a');
    nowMs += 30_000;
    assert.equal(tokens.redeem(late, 'access-a'), 'expired');
    const issued = [1, 2, 3, 4].map(() => tokens.issue('access-a'));
    assert.equal(tokens.evicted, 1);
    assert.equal(tokens.redeem(issued[0] as string, 'access-a'), 'unknown');
    assert.equal(tokens.redeem(issued[3] as string, 'access-a'), 'ok');
  });

  it('answers 404 for an upgrade outside the hub path', async () => {
    const t = await startTestService();
    try {
      const ws = new WebSocket(`${t.service.wsUrl}/hubs/other?id=x`, {
        headers: { Authorization: `Bearer ${demo.admin}` },
      });
      const status = await new Promise<number>((resolve) =>
        ws.once('unexpected-response', (_q, res) => resolve(res.statusCode ?? 0)),
      );
      assert.equal(status, 404);
    } finally {
      await t.service.close();
    }
  });
});
