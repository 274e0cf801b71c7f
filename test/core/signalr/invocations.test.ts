/**
 * The device's own invocations (src/signalr/hub-invoker.ts) over the hub
 * client: ids, Completions, timeouts, bounds, and what a drop or a stop does
 * to what is pending.
 */
import { AgentError } from '../../../src/errors.js';
import { setProperties } from '../../../src/signalr/properties.js';
import type { Value } from '../../../src/agent/driver.js';
import { assert } from '../../support/assert.js';
import { harness } from './harness.js';

describe('signalr/invocations', () => {
  it('numbers invocations "0", "1", ... and matches Completions by id', async () => {
    const h = harness();
    const socket = await h.connect();
    const a = h.invoker.invoke('SetProperties', [{ values: { a: 1 } }]);
    const b = h.invoker.invoke('Other', []);
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
    const failing = h.invoker.invoke('SetProperties', []);
    const empty = h.invoker.invoke('X', []);
    const nulled = h.invoker.invoke('Y', []);
    socket.receiveRecords(
      { type: 3, invocationId: '0', error: 'Property name is not valid' },
      { type: 3, invocationId: '1' },
      { type: 3, invocationId: '2', result: null, error: null },
    );
    const e = await assert.rejects(failing, 'hub');
    assert.match((e as Error).message, /SetProperties: Property name is not valid/);
    assert.equal(await empty, null);
    assert.equal(await nulled, null);
  });

  it('times out one invocation, and ignores its late Completion and unknown ids', async () => {
    const h = harness({}, { timeoutMs: 5000 });
    const socket = await h.connect();
    const slow = h.invoker.invoke('Slow', []);
    const quick = h.invoker.invoke('Quick', [], 60000);
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

  it('checks each Completion: a malformed one is logged (listener failed), the invocation still waits', async () => {
    const h = harness();
    const socket = await h.connect();
    const pending = h.invoker.invoke('A', []);
    socket.receiveRecords({ type: 3 }, { type: 3, invocationId: 0 }, { type: 3, invocationId: '0', error: 4 });
    assert.equal(h.logger.find('error', 'hub: listener failed').length, 3);
    socket.receiveRecords({ type: 3, invocationId: '0', result: 'ok' });
    assert.equal(await pending, 'ok');
    assert.equal(h.client.status, 'connected');
  });

  it('rejects every pending invocation with network when the connection drops', async () => {
    const h = harness();
    const socket = await h.connect();
    const pending = [h.invoker.invoke('A', []), h.invoker.invoke('B', [])];
    socket.drop();
    for (const p of pending) await assert.rejects(p, 'network');
    assert.equal(h.clock.pending, 1, 'only the back-off timer is left');
  });

  it('rejects pending invocations with closed on stop, and refuses new ones when not connected', async () => {
    const h = harness();
    await assert.rejects(h.invoker.invoke('Early', []), 'network');
    const socket = await h.connect();
    const pending = h.invoker.invoke('A', []);
    h.client.stop();
    await assert.rejects(pending, 'closed');
    await assert.rejects(h.invoker.invoke('Late', []), 'network');
    assert.ok(socket.closedByClient);
    assert.equal(h.clock.pending, 0);
  });

  it('a failed send rejects with network and ends the connection', async () => {
    const h = harness();
    const socket = await h.connect();
    socket.send = () => {
      throw new Error('socket gone');
    };
    await assert.rejects(h.invoker.invoke('A', []), 'network');
    assert.equal(h.client.status, 'waiting');
    assert.ok(socket.closedByClient);
  });

  it('refuses outgoing messages over 32 KB with too-large, and keeps the connection', async () => {
    const h = harness();
    const socket = await h.connect();
    const big = 'é'.repeat(16400); // 32,800 UTF-8 bytes, under 32 K characters
    await assert.rejects(h.invoker.invoke('SetProperties', [{ values: { big } }]), 'too-large');
    assert.deepEqual(socket.messages(), []);
    const fits = 'x'.repeat(32000);
    const sent = h.invoker.invoke('Fits', [fits]);
    assert.equal(socket.messages().length, 1);
    socket.receiveRecords({ type: 3, invocationId: '1' });
    assert.equal(await sent, null);
    assert.equal(h.client.status, 'connected');
  });

  it('bounds the number of pending invocations', async () => {
    const h = harness({}, { maxPending: 2 });
    await h.connect();
    void h.invoker.invoke('A', []).catch(() => undefined);
    void h.invoker.invoke('B', []).catch(() => undefined);
    await assert.rejects(h.invoker.invoke('C', []), 'overflow');
    h.client.stop();
  });

  it('setProperties: the Completion result becomes the property set; a bad result changes nothing', async () => {
    const h = harness();
    const socket = await h.connect();
    const set: [Record<string, Value>, boolean][] = [];
    const sink = {
      updateProperties: (values: Readonly<Record<string, Value>>, replace: boolean) =>
        set.push([{ ...values }, replace]),
    };
    const done = setProperties(h.invoker, sink, { label: 'new' });
    const malformed = setProperties(h.invoker, sink, { ok: 1 });
    const refused = setProperties(h.invoker, sink, { 'Bad Name': 1 });
    assert.deepEqual(socket.messages()[0], {
      type: 1,
      invocationId: '0',
      target: 'SetProperties',
      arguments: [{ values: { label: 'new' } }],
    });
    socket.receiveRecords(
      { type: 3, invocationId: '1', result: { ok: [1] } },
      { type: 3, invocationId: '2', error: 'invalid property name' },
      { type: 3, invocationId: '0', result: { label: 'new', interval: 5 } },
    );
    await assert.rejects(malformed, 'wire.invalid');
    await assert.rejects(refused, 'hub');
    assert.deepEqual(await done, { label: 'new', interval: 5 });
    assert.deepEqual(set, [[{ label: 'new', interval: 5 }, true]]);
  });
});
