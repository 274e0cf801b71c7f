import { AgentError } from '../../../src/errors.js';
import { assert } from '../../support/assert.js';
import { harness } from './harness.js';

describe('signalr/invocations', () => {
  it('numbers invocations "0", "1", ... and matches Completions by id', async () => {
    const h = harness();
    const socket = await h.connect();
    const a = h.client.invoke('SetProperties', [{ values: { a: 1 } }]);
    const b = h.client.invoke('Other', []);
    assert.deepEqual(socket.messages(), [
      { type: 1, invocationId: '0', target: 'SetProperties', arguments: [{ values: { a: 1 } }] },
      { type: 1, invocationId: '1', target: 'Other', arguments: [] },
    ]);
    socket.receiveRecords(
      { type: 3, invocationId: '1', result: 'b' },
      { type: 3, invocationId: '0', result: { a: 1 } },
    );
    assert.deepEqual(await a, { a: 1 });
    assert.equal(await b, 'b');
  });

  it('rejects with the error text (code hub); null or absent result is success', async () => {
    const h = harness();
    const socket = await h.connect();
    const failing = h.client.invoke('SetProperties', []);
    const empty = h.client.invoke('X', []);
    const nulled = h.client.invoke('Y', []);
    socket.receiveRecords(
      { type: 3, invocationId: '0', error: 'Property name is not valid' },
      { type: 3, invocationId: '1' },
      { type: 3, invocationId: '2', result: null },
    );
    const e = await assert.rejects(failing, 'hub');
    assert.match((e as Error).message, /Property name is not valid/);
    assert.equal(await empty, null);
    assert.equal(await nulled, null);
  });

  it('times out one invocation, and ignores its late Completion and unknown ids', async () => {
    const h = harness({ invocationTimeoutMs: 5000 });
    const socket = await h.connect();
    const slow = h.client.invoke('Slow', []);
    const quick = h.client.invoke('Quick', [], 60000);
    let failure: unknown;
    slow.catch((e: unknown) => (failure = e));
    await h.clock.advanceAsync(5000);
    assert.equal((failure as AgentError | undefined)?.code, 'timeout');
    socket.receiveRecords({ type: 3, invocationId: '0', result: 1 }, { type: 3, invocationId: '99', result: 1 });
    socket.receiveRecords({ type: 3, invocationId: '1', result: 2 });
    assert.equal(await quick, 2);
    assert.equal(h.client.status, 'connected');
    h.logger.assertNoErrors();
  });

  it('rejects every pending invocation when the connection drops', async () => {
    const h = harness();
    const socket = await h.connect();
    const pending = [h.client.invoke('A', []), h.client.invoke('B', [])];
    socket.drop();
    for (const p of pending) await assert.rejects(p, 'network');
  });

  it('rejects pending invocations with closed on stop, and refuses new ones when not connected', async () => {
    const h = harness();
    await assert.rejects(h.client.invoke('Early', []), 'network');
    const socket = await h.connect();
    const pending = h.client.invoke('A', []);
    h.client.stop();
    await assert.rejects(pending, 'closed');
    await assert.rejects(h.client.invoke('Late', []), 'network');
    assert.ok(socket.closedByClient);
    assert.equal(h.clock.pending, 0);
  });

  it('refuses outgoing messages over 32 KB with too-large, and keeps the connection', async () => {
    const h = harness();
    const socket = await h.connect();
    const big = 'é'.repeat(16400); // 32,800 UTF-8 bytes, under 32 K characters
    await assert.rejects(h.client.invoke('SetProperties', [{ values: { big } }]), 'too-large');
    assert.deepEqual(socket.messages(), []);
    const fits = 'x'.repeat(32000);
    const sent = h.client.invoke('Fits', [fits]);
    assert.equal(socket.messages().length, 1);
    socket.receiveRecords({ type: 3, invocationId: '1' });
    assert.equal(await sent, null);
    assert.equal(h.client.status, 'connected');
  });

  it('bounds the number of pending invocations', async () => {
    const h = harness({ maxPendingInvocations: 2 });
    await h.connect();
    void h.client.invoke('A', []).catch(() => undefined);
    void h.client.invoke('B', []).catch(() => undefined);
    await assert.rejects(h.client.invoke('C', []), 'overflow');
    h.client.stop();
  });
});
