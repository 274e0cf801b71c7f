/**
 * The hub's fault switches (docs/realtime.md, "The local hub"): fragmented frames,
 * batched records, split records, silence, refusal, abrupt drops and Close
 * with and without allowReconnect. Each is observed on the wire.
 */
import { strict as assert } from 'node:assert';
import { demo, quietHub, useTestService } from './helpers.js';
import { RawHubClient, terminateAll } from './raw-hub-client.js';

describe('service hub fault switches', () => {
  const clients: RawHubClient[] = [];
  const t = useTestService(quietHub, { beforeClose: () => terminateAll(clients) });
  const connect = async (): Promise<RawHubClient> => {
    const c = await RawHubClient.connect(t.service.url, demo.token1);
    clients.push(c);
    return c;
  };
  const notifyOnce = (): Promise<unknown> =>
    t.post('/api/v1/states/write', { device: 'demo-001', states: [{ channel: 'relay.desired', value: true }] });

  it('fragmentFrames: each message goes out as several frames and arrives whole', async () => {
    t.service.hub.faults.fragmentFrames = true;
    const c = await connect();
    await notifyOnce();
    await c.waitFor(() => c.ofType(1).length === 1);
    assert.equal(c.messages.length, 2);
    assert.ok(c.frames.length >= 4, `expected fragments, got ${c.frames.length} frames`);
    assert.deepEqual(c.frames.slice(0, 3), [
      { fin: false, opcode: 1 },
      { fin: false, opcode: 0 },
      { fin: true, opcode: 0 },
    ]);
    assert.equal(c.frames.filter((f) => f.fin).length, c.messages.length);
  });

  it('batchRecords: the handshake answer travels with the next record in one message', async () => {
    t.service.hub.faults.batchRecords = true;
    const c = await connect();
    await c.waitFor(() => c.records.length >= 2);
    assert.equal(c.messages[0], '{}\u001e{"type":6}\u001e');
    // Records produced together are coalesced: a Notify and a Completion in one tick.
    c.sendRecord({ type: 1, invocationId: '0', target: 'SetProperties', arguments: [{ values: {} }] });
    c.sendRecord({ type: 1, invocationId: '1', target: 'SetProperties', arguments: [{ values: {} }] });
    await c.waitFor(() => c.ofType(3).length === 2);
    assert.equal(c.messages.length, 2);
  });

  it('splitRecords: each record is split across two messages and decodes whole', async () => {
    t.service.hub.faults.splitRecords = true;
    const c = await connect();
    assert.deepEqual(c.messages.slice(0, 2), ['{', '}\u001e']);
    await notifyOnce();
    await c.waitFor(() => c.ofType(1).length === 1);
    assert.equal(c.messages.length, 4);
    assert.equal(c.messages.filter((m) => m.endsWith('\u001e')).length, 2);
  });

  it('silent: nothing is sent, not even the handshake answer or pings', async () => {
    await t.restart({ hub: { pingIntervalMs: 10, clientTimeoutMs: 60_000 } });
    t.service.hub.faults.silent = true;
    const c = await RawHubClient.connect(t.service.url, demo.token1, { handshake: false });
    clients.push(c);
    c.send('{"protocol":"json","version":1}\u001e');
    await notifyOnce();
    await assert.rejects(
      c.waitFor(() => c.messages.length > 0, 150),
      /timed out/,
    );
    t.service.hub.faults.silent = false;
    await c.waitFor(() => c.ofType(6).length > 0);
  });

  it('refuseWith: negotiate and the upgrade answer 401 or 403', async () => {
    for (const status of [401, 403] as const) {
      t.service.hub.faults.refuseWith = status;
      await assert.rejects(RawHubClient.connect(t.service.url, demo.token1), new RegExp(`negotiate ${status}`));
      t.service.hub.faults.refuseWith = null;
      const n = await fetch(`${t.service.url}/hubs/properties/negotiate?negotiateVersion=1`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${demo.token1}` },
      });
      const { connectionToken } = (await n.json()) as { connectionToken: string };
      t.service.hub.faults.refuseWith = status;
      await assert.rejects(
        RawHubClient.open(t.service.url, demo.token1, connectionToken),
        new RegExp(`upgrade ${status}`),
      );
    }
    t.service.hub.faults.refuseWith = null;
    await connect();
  });

  it('answers 503 beyond maxConnections, and accepts again once one closes', async () => {
    await t.restart({ hub: { maxConnections: 2 } });
    const a = await connect();
    await connect();
    await assert.rejects(connect(), /upgrade 503/);
    await a.close();
    for (let i = 0; i < 1000 && t.service.hub.connectionCount() !== 1; i++) await new Promise((r) => setImmediate(r));
    await connect();
    assert.equal(t.service.hub.connectionCount(), 2);
  });

  it('dropAll terminates every socket without a Close message', async () => {
    const a = await connect();
    const b = await connect();
    t.service.hub.dropAll();
    // Each client wakes only its own waiters: wait for each close on its own client.
    await a.waitFor(() => a.closeCode !== undefined);
    await b.waitFor(() => b.closeCode !== undefined);
    assert.equal(a.closeCode, 1006);
    assert.equal(a.ofType(7).length + b.ofType(7).length, 0);
    assert.equal(t.service.hub.connectionCount(), 0);
  });

  it('closeAll sends Close with and without allowReconnect, with an optional error', async () => {
    const a = await connect();
    t.service.hub.closeAll({ allowReconnect: true });
    await a.waitFor(() => a.closeCode !== undefined);
    assert.deepEqual(a.ofType(7), [{ type: 7, allowReconnect: true }]);
    assert.equal(a.closeCode, 1000);
    const b = await connect();
    t.service.hub.closeAll({ allowReconnect: false, error: 'Server is shutting down.' });
    await b.waitFor(() => b.closeCode !== undefined);
    assert.deepEqual(b.ofType(7), [{ type: 7, error: 'Server is shutting down.', allowReconnect: false }]);
  });
});
