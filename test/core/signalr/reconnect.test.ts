import { AgentError } from '../../../src/errors.js';
import { fullJitter } from '../../../src/retry/backoff.js';
import { assert } from '../../support/assert.js';
import { harness, json } from './harness.js';

describe('signalr/reconnect', () => {
  it('reconnects after a drop with a fresh negotiate and the token read again', async () => {
    const h = harness();
    const first = await h.connect();
    h.token.value = 'device-token-2';
    first.drop();
    await h.clock.advanceAsync(999);
    assert.equal(h.http.requests.length, 1);
    await h.clock.advanceAsync(1);
    assert.equal(h.http.requests.length, 2);
    assert.equal(h.http.requests[1]?.headers['Authorization'], 'Bearer device-token-2');
    const second = h.sockets.last;
    assert.equal(second.url, 'ws://127.0.0.1:8080/hubs/properties?id=ct%201%2Fx');
    assert.equal(second.headers['Authorization'], 'Bearer device-token-2');
    second.accept();
    assert.equal(h.client.status, 'connected');
  });

  it('backs off by attempt, forever, and starts over after a successful connection', async () => {
    const h = harness();
    for (let i = 0; i < 4; i++) h.http.script.push(new AgentError('network', 'down'));
    h.client.start();
    await h.clock.advanceAsync(10000);
    h.sockets.last.accept();
    h.sockets.last.drop();
    await h.clock.advanceAsync(0);
    assert.deepEqual(h.policy.attempts, [1, 2, 3, 4, 1]);
  });

  it('uses full-jitter exponential backoff, capped, by default', async () => {
    const h = harness({
      retry: fullJitter(1000, 8000, () => 0.5),
    });
    const waits: number[] = [];
    h.client.listen((kind) => kind === 'waiting' && waits.push(h.clock.monotonicMs()));
    for (let i = 0; i < 6; i++) h.http.script.push(json(503, {}));
    h.client.start();
    await h.clock.advanceAsync(60000);
    const gaps = waits.slice(1, 6).map((t, i) => t - (waits[i] ?? 0));
    assert.deepEqual(gaps, [500, 1000, 2000, 4000, 4000]);
    assert.equal(h.http.requests.length > 6, true, 'still trying');
  });

  it('runs exactly one reconnect loop, whatever ends the connection', async () => {
    const h = harness();
    const socket = await h.connect();
    h.client.start();
    socket.receiveRecords({ type: 7, allowReconnect: true });
    socket.drop();
    socket.drop();
    await h.clock.advanceAsync(10000);
    assert.equal(h.sockets.sockets.length, 2);
    assert.equal(h.http.requests.length, 2);
  });

  it('changes state in one order: connecting, handshaking, connected, waiting, ...', async () => {
    const h = harness();
    const states: string[] = [];
    h.client.listen((kind) => typeof kind === 'string' && states.push(kind));
    (await h.connect()).drop();
    await h.clock.advanceAsync(1000);
    h.client.stop();
    assert.deepEqual(states, [
      'connecting',
      'handshaking',
      'connected',
      'waiting',
      'connecting',
      'handshaking',
      'stopped',
    ]);
  });

  it('stop() while waiting or negotiating ends the loop for good', async () => {
    const h = harness();
    (await h.connect()).drop();
    await h.clock.advanceAsync(0);
    h.client.stop();
    await h.clock.advanceAsync(60000);
    assert.equal(h.http.requests.length, 1);
    const g = harness();
    g.client.start();
    g.client.stop();
    await g.clock.advanceAsync(60000);
    assert.equal(g.sockets.sockets.length, 0);
    assert.equal(g.client.status, 'stopped');
  });

  it('401/403 is not a retry loop: the next attempt waits authRetryMs, then reads the token again', async () => {
    const h = harness({ authRetryMs: 600000 });
    h.http.script.push(json(401, {}));
    const codes: string[] = [];
    h.client.listen((kind, error) => kind === 'waiting' && codes.push(error?.code ?? ''));
    h.client.start();
    await h.clock.advanceAsync(0);
    assert.deepEqual(codes, ['auth']);
    assert.equal(h.logger.find('error', 'hub: waiting').length, 1, 'a refusal is an error line');
    h.token.value = 'renewed-token';
    await h.clock.advanceAsync(599999);
    assert.equal(h.http.requests.length, 1, 'nothing is sent before authRetryMs');
    await h.clock.advanceAsync(1);
    assert.equal(h.http.requests.length, 2);
    assert.equal(h.http.requests[1]?.headers['Authorization'], 'Bearer renewed-token');
    h.sockets.last.accept();
    assert.equal(h.client.status, 'connected');
    assert.deepEqual(h.policy.attempts, [], 'the back-off policy is not asked for a refusal');
  });

  it('logs transitions, not repeats: a repeated refusal once, a different failure again, each new outage', async () => {
    const h = harness({ authRetryMs: 120000 });
    h.http.script.push(json(403, {}), json(403, {}), new AgentError('network', 'down'));
    h.client.start();
    await h.clock.advanceAsync(240000);
    assert.equal(h.http.requests.length, 3);
    assert.equal(h.logger.find('error', 'hub: waiting').length, 1);
    assert.equal(h.logger.find('warn', 'hub: waiting').length, 1);
    await h.clock.advanceAsync(1000);
    h.sockets.last.accept();
    h.sockets.last.drop();
    await h.clock.advanceAsync(1000);
    h.sockets.last.accept();
    assert.equal(h.logger.find('info', 'hub: connected').length, 2);
    assert.equal(h.logger.find('warn', 'hub: waiting').length, 2);
    assert.deepEqual(
      h.logger.lines.map((l) => l.message),
      ['hub: waiting', 'hub: waiting', 'hub: connected', 'hub: waiting', 'hub: connected'],
    );
  });
});
