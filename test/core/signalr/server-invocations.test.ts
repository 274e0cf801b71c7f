/**
 * What the client does with the messages a server sends once connected:
 * Invocations to the listeners (a throwing one is logged), an `invocationId` answered with an
 * error Completion, malformed records dropped, streams and unknown types
 * ignored without a log line, Close with and without allowReconnect.
 */
import { assert } from '../../support/assert.js';
import { harness, invocations } from './harness.js';

const notify = (args: unknown[], extra: Record<string, unknown> = {}) => ({
  type: 1,
  target: 'Notify',
  arguments: args,
  ...extra,
});

describe('signalr/server invocations', () => {
  it('hands each Invocation to the listeners with its target, in order', async () => {
    const h = harness();
    const seen: [string, readonly unknown[]][] = [];
    const off = invocations(h.client, (target, args) => void seen.push([target, args]));
    const socket = await h.connect();
    socket.receiveRecords(notify([{ a: 1 }]), { type: 1, target: 'notify', arguments: [2] });
    off();
    socket.receiveRecords(notify([3]));
    assert.deepEqual(seen, [
      ['Notify', [{ a: 1 }]],
      ['notify', [2]],
    ]);
    assert.equal(h.client.status, 'connected');
    h.logger.assertNoErrors();
  });

  it('answers an invocation with an invocationId with an error Completion', async () => {
    const h = harness();
    let called = 0;
    invocations(h.client, () => void called++);
    const socket = await h.connect();
    socket.receiveRecords(notify([], { invocationId: '42' }), notify([], { invocationId: null }));
    assert.equal(called, 2);
    assert.equal(socket.messages().length, 1);
    const answer = socket.messages()[0];
    assert.equal(answer?.['type'], 3);
    assert.equal(answer?.['invocationId'], '42');
    assert.equal(typeof answer?.['error'], 'string');
    assert.equal(answer?.['result'], undefined);
  });

  it('a throwing listener is logged and cannot break the connection or the other listeners', async () => {
    const h = harness();
    const seen: unknown[] = [];
    invocations(h.client, (_target, args) => {
      seen.push(args[0]);
      if (args[0] === 1) throw new Error('bad handler');
    });
    h.client.listen(() => {
      throw new Error('bad listener');
    });
    const socket = await h.connect();
    socket.receiveRecords(notify([1]), notify([2]));
    await h.clock.advanceAsync(0);
    assert.deepEqual(seen, [1, 2]);
    assert.equal(h.client.status, 'connected');
    assert.equal(
      h.logger.find('error', 'hub: listener failed').length,
      6,
      'the receiver once; the other listener at connecting, handshaking, connected and both messages',
    );
  });

  it('logs and drops malformed records, keeping the records around them', async () => {
    const h = harness();
    const seen: unknown[] = [];
    invocations(h.client, (_target, args) => void seen.push(args[0]));
    const socket = await h.connect();
    socket.receive('{"type":1,"target":"Notify","arguments":[1]}\u001e{oops\u001e[]\u001e{"type":1}\u001e');
    socket.receiveRecords(notify([2]));
    assert.deepEqual(seen, [1, 2]);
    assert.equal(h.logger.find('warn', 'message dropped').length, 3);
    assert.equal(h.client.status, 'connected');
  });

  it('ignores stream messages (2, 4, 5) and unknown types, without a log line', async () => {
    const h = harness();
    const socket = await h.connect();
    const before = h.logger.lines.length;
    socket.receiveRecords(
      { type: 2, invocationId: '0', item: 1 },
      { type: 4, invocationId: '1', target: 'Stream', arguments: [] },
      { type: 5, invocationId: '1' },
      { type: 42, anything: true },
      {},
    );
    assert.deepEqual(socket.messages(), []);
    assert.equal(h.client.status, 'connected');
    assert.equal(h.logger.lines.length, before);
  });

  it('Close with allowReconnect reconnects; without it stops and reports why', async () => {
    const h = harness();
    const reasons: string[] = [];
    h.client.listen((kind, error) => kind === 'stopped' && reasons.push(error?.message ?? ''));
    const first = await h.connect();
    first.receiveRecords({ type: 7, error: 'Server is restarting', allowReconnect: true });
    assert.ok(first.closedByClient);
    await h.clock.advanceAsync(1000);
    const second = h.sockets.last;
    assert.notEqual(second, first);
    second.accept();
    let after = 0;
    invocations(h.client, () => void after++);
    second.receiveRecords({ type: 7, error: 'Device disabled' }, notify([1]));
    assert.equal(after, 0, 'nothing after a Close is read');
    await h.clock.advanceAsync(60000);
    assert.equal(h.client.status, 'stopped');
    assert.equal(h.sockets.sockets.length, 2);
    assert.equal(reasons.length, 1);
    assert.match(reasons[0] ?? '', /Device disabled/);
    assert.equal(h.logger.find('error', 'hub: stopped').length, 1);
    assert.equal(h.clock.pending, 0);
  });
});
