import { AgentError } from '../../../src/errors.js';
import { assert } from '../../support/assert.js';
import { harness, invocations } from './harness.js';

describe('signalr/connection', () => {
  it('opens {ws}/hubs/properties?id=<encoded token> with the Authorization header, then handshakes', async () => {
    const h = harness();
    const socket = await h.connect(false);
    assert.equal(socket.url, 'ws://127.0.0.1:8080/hubs/properties?id=ct%200%2Fx');
    assert.equal(socket.headers['Authorization'], 'Bearer device-token-1');
    assert.equal(h.client.status, 'handshaking');
    assert.deepEqual(socket.sent, []);
    socket.open();
    assert.deepEqual(socket.sent, ['{"protocol":"json","version":1}\u001e']);
    socket.receive('{}\u001e');
    assert.equal(h.client.status, 'connected');
    h.logger.assertNoErrors();
  });

  it('takes the handshake answer and the records after it from one message', async () => {
    const h = harness();
    const seen: unknown[] = [];
    invocations(h.client, (_target, args) => void seen.push(args[0]));
    const socket = await h.connect(false);
    socket.open();
    socket.receive('{}\u001e{"type":1,"target":"Notify","arguments":[1]}\u001e{"type":6}\u001e');
    assert.deepEqual(seen, [1]);
  });

  it('reassembles records split across messages, byte by byte', async () => {
    const h = harness();
    const seen: unknown[] = [];
    invocations(h.client, (_target, args) => void seen.push(args[0]));
    const socket = await h.connect(false);
    socket.open();
    const text = '{}\u001e{"type":1,"target":"Notify","arguments":["é\u001e"]}\u001e'.replace('é\u001e', 'é\\u001e');
    for (const ch of text) socket.receive(ch);
    assert.deepEqual(seen, ['é\u001e']);
  });

  it('fails the attempt when the handshake is not answered within serverTimeoutMs, and retries', async () => {
    const h = harness({ serverTimeoutMs: 5000 });
    const socket = await h.connect(false);
    socket.open();
    await h.clock.advanceAsync(4999);
    assert.equal(h.client.status, 'handshaking');
    await h.clock.advanceAsync(1);
    assert.equal(h.client.status, 'waiting');
    assert.ok(socket.closedByClient);
    await h.clock.advanceAsync(1000);
    assert.equal(h.sockets.sockets.length, 2);
  });

  it('the handshake timeout also covers a socket that never opens', async () => {
    const h = harness({ serverTimeoutMs: 5000 });
    await h.connect(false);
    await h.clock.advanceAsync(5000);
    assert.equal(h.client.status, 'waiting');
  });

  it('fails the attempt on a handshake error and on a malformed handshake answer', async () => {
    const h = harness();
    const states: string[] = [];
    h.client.listen((kind, error) => states.push(`${kind}${error ? ':' + error.code : ''}`));
    const socket = await h.connect(false);
    socket.open();
    socket.receive('{"error":"Requested protocol \'json\' is not available."}\u001e');
    assert.ok(socket.closedByClient);
    await h.clock.advanceAsync(1000);
    h.sockets.last.open();
    h.sockets.last.receive('garbage\u001e');
    await h.clock.advanceAsync(1000);
    assert.deepEqual(states.slice(0, 6), [
      'connecting',
      'handshaking',
      'waiting:hub',
      'connecting',
      'handshaking',
      'waiting:wire.invalid',
    ]);
  });

  it('survives a socket factory that throws', async () => {
    const h = harness();
    h.sockets.failNext = new Error('no route');
    h.client.start();
    await h.clock.advanceAsync(0);
    assert.equal(h.client.status, 'waiting');
    await h.clock.advanceAsync(1000);
    h.sockets.last.accept();
    assert.equal(h.client.status, 'connected');
  });

  it('drops the connection (and reconnects) on an incoming record over maxReceiveBytes', async () => {
    const h = harness({ maxReceiveBytes: 100 });
    const socket = await h.connect();
    socket.receive('{"type":1,"target":"Notify","arguments":["' + 'x'.repeat(200));
    await h.clock.advanceAsync(0);
    assert.equal(h.client.status, 'waiting');
    assert.ok(socket.closedByClient);
  });

  it('ignores events of a socket after it ended', async () => {
    const h = harness();
    const seen: unknown[] = [];
    invocations(h.client, (_target, args) => void seen.push(args));
    const socket = await h.connect();
    socket.drop();
    socket.receiveRecords({ type: 1, target: 'Notify', arguments: [] });
    socket.drop('again');
    await h.clock.advanceAsync(0);
    assert.deepEqual(seen, []);
    assert.equal(h.client.status, 'waiting');
    assert.equal(h.logger.find('warn', 'hub: waiting').length, 1);
  });

  it('starts each socket with an empty record buffer: a partial record of a dropped socket is gone', async () => {
    const h = harness();
    const seen: unknown[] = [];
    invocations(h.client, (_target, args) => void seen.push(args[0]));
    const first = await h.connect();
    first.receive('{"type":1,"target":"Notify","arguments":["lost');
    first.drop();
    await h.clock.advanceAsync(1000);
    const second = h.sockets.last;
    second.accept();
    second.receiveRecords({ type: 1, target: 'Notify', arguments: ['kept'] });
    assert.deepEqual(seen, ['kept']);
    h.logger.assertNoErrors();
    assert.equal(h.logger.find('warn', 'dropped').length, 0);
  });

  it('a negotiate network failure is a normal retry', async () => {
    const h = harness();
    h.http.script.push(new AgentError('network', 'ECONNREFUSED'));
    h.client.start();
    await h.clock.advanceAsync(0);
    assert.equal(h.client.status, 'waiting');
    await h.clock.advanceAsync(1000);
    assert.equal(h.sockets.sockets.length, 1);
  });
});
