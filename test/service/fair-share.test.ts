/**
 * The budgets of the fair share (decisions 10, docs/service.md#limits), each at
 * its limit and past it: the request budget of an access token (429 with
 * `Retry-After`, refilled on the service clock), the cap on open connections
 * (503 with `Retry-After`), the time a request's headers may take (408), a
 * malformed chunk size (400, answered) and a burst of WebSocket pings (answered
 * up to the rule, then closed with 1008 and logged).
 */
import { strict as assert } from 'node:assert';
import { Agent, request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { defaultLimits } from '../../host-sim/service/limits.js';
import { demo, quietHub, startTestService, type TestService } from './helpers.js';
import { RawHubClient } from './raw-hub-client.js';

type Obj = Record<string, unknown>;

/** Sends raw bytes; resolves with everything the service answered once it closes the socket. */
function rawExchange(port: number, text: string): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let out = '';
    socket.on('data', (d: Buffer) => (out += String(d)));
    socket.on('error', () => undefined);
    socket.on('close', () => resolve(out));
    socket.write(text);
  });
}

describe('service fair share: budgets', () => {
  let t: TestService | undefined;
  afterEach(async () => {
    await t?.service.close();
    t = undefined;
  });

  it('gives each access token its burst, then 429 with Retry-After, refilled at its rate on the service clock', async () => {
    t = await startTestService({ ...quietHub, limits: { ratePerSecond: 2, burst: 5 } });
    const get = (token: string): Promise<number> =>
      (t as TestService).get('/api/v1/devices/get?device=demo-001', token).then((r) => r.status);
    for (let i = 0; i < 5; i++) assert.equal(await get(demo.token1), 200, `request ${i + 1} of the burst`);
    const past = await t.get('/api/v1/devices/get?device=demo-001', demo.token1);
    assert.equal(past.status, 429);
    assert.equal(past.headers.get('retry-after'), '1');
    assert.match((past.json as Obj)['detail'] as string, /request budget spent: 2 requests\/s, burst 5/);
    assert.equal(await get(demo.admin), 200, 'another token keeps its own budget');
    t.clock.nowMs += 499;
    assert.equal(await get(demo.token1), 429, 'not yet one request back');
    t.clock.nowMs += 1;
    assert.equal(await get(demo.token1), 200, 'one back after 1/rate');
    assert.equal(await get(demo.token1), 429);
    // Negotiate and the hub upgrade take from the same budget.
    t.clock.nowMs += 500; // one back: negotiate takes it, the upgrade finds none
    await assert.rejects(RawHubClient.connect(t.service.url, demo.token1), /upgrade 429/);
  });

  it('takes one request of the budget for each hub SetProperties; past it, a completion error and nothing set', async () => {
    t = await startTestService({ ...quietHub, limits: { ratePerSecond: 2, burst: 5 } });
    const c = await RawHubClient.connect(t.service.url, demo.token1); // negotiate and upgrade: 2 of 5
    const set = async (id: string, mode: string): Promise<Obj> => {
      c.sendRecord({
        type: 1,
        invocationId: id,
        target: 'SetProperties',
        arguments: [{ values: { 'report-mode': mode } }],
      });
      await c.waitFor(() => c.ofType(3).some((m) => m['invocationId'] === id));
      return c.ofType(3).find((m) => m['invocationId'] === id) as Obj;
    };
    const mode = async (): Promise<unknown> => {
      const r = await (t as TestService).get('/api/v1/properties/get?device=demo-001', demo.admin);
      return (r.json as Obj)['report-mode'];
    };
    try {
      for (const [i, m] of ['a', 'b', 'c'].entries()) {
        const done = await set(String(i), m);
        assert.equal(done['error'], undefined, `invocation ${i + 1} of the 3 left: ${JSON.stringify(done)}`);
      }
      assert.equal(await mode(), 'c');
      const past = await set('3', 'd');
      assert.equal(
        past['error'],
        "An unexpected error occurred invoking 'SetProperties' on the server. HubException: " +
          'request budget spent: 2 requests/s, burst 5; retry after 1 s',
      );
      assert.equal(await mode(), 'c', 'the refused invocation set nothing');
      const http = await t.get('/api/v1/devices/get?device=demo-001', demo.token1);
      assert.equal(http.status, 429, 'HTTP and the hub draw on one budget');
      t.clock.nowMs += 500; // one request back
      assert.equal((await set('4', 'e'))['error'], undefined);
      assert.equal(await mode(), 'e');
      assert.equal(c.ofType(7).length, 0, 'the connection stays open');
    } finally {
      await c.close();
    }
  });

  it('answers 429 before reading the body and keeps the connection for a short body, closes it for a long one', async () => {
    t = await startTestService({ ...quietHub, limits: { ratePerSecond: 1, burst: 1 } });
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const post = (body: string): Promise<{ status: number; connection: string | undefined; reused: boolean }> =>
      new Promise((resolve, reject) => {
        const req = request(
          `${(t as TestService).service.url}/api/v1/properties/get`,
          {
            method: 'POST',
            agent,
            headers: { Authorization: `Bearer ${demo.token1}`, 'Content-Type': 'application/json' },
          },
          (res) => {
            res.resume();
            res.on('end', () =>
              resolve({ status: res.statusCode ?? 0, connection: res.headers.connection, reused: req.reusedSocket }),
            );
          },
        );
        req.on('error', reject);
        req.end(body);
      });
    // Past the budget the body is not parsed (padded, it is not JSON: a parse would answer 400).
    const padded = (n: number): string => JSON.stringify({ device: 'demo-001' }).padEnd(n, '!');
    try {
      assert.equal((await post(padded(1))).status, 200);
      const short = await post(padded(60 * 1024)); // the largest body dropped unread is 64 KiB
      assert.deepEqual(short, { status: 429, connection: 'keep-alive', reused: true });
      const next = await post(padded(1));
      assert.deepEqual(next, { status: 429, connection: 'keep-alive', reused: true }, 'the same connection serves on');
      const long = await post(padded(70 * 1024));
      assert.equal(long.status, 429);
      assert.equal(long.connection, 'close', 'a long body is not read: the connection closes');
    } finally {
      agent.destroy();
    }
  });

  it('documents defaults that a device reporting every second and a dashboard never meet', () => {
    assert.ok(defaultLimits.ratePerSecond >= 50 && defaultLimits.burst >= 2 * defaultLimits.ratePerSecond);
  });

  it('answers a connection past the cap 503 with Retry-After while those at the cap are served', async () => {
    t = await startTestService({ ...quietHub, limits: { maxConnections: 3 } });
    const open: Socket[] = [];
    for (let i = 0; i < 3; i++) {
      const s = connect(t.service.port, '127.0.0.1');
      await new Promise((resolve) => s.once('connect', resolve));
      open.push(s);
    }
    try {
      const refused = await rawExchange(t.service.port, 'GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n');
      assert.match(refused, /^HTTP\/1\.1 503 Service Unavailable\r\n/);
      assert.match(refused, /\r\nRetry-After: 1\r\n/);
      assert.match(refused, /the service has 3 connections open/);
      // One of the three open connections is served.
      const served = new Promise<string>((resolve) => {
        let out = '';
        open[0]?.on('data', (d: Buffer) => {
          out += String(d);
          if (out.includes('"status":"ok"')) resolve(out);
        });
      });
      open[0]?.write('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n');
      assert.match(await served, /^HTTP\/1\.1 200 OK/);
    } finally {
      for (const s of open) s.destroy();
    }
  });

  it('answers 408 when the headers take longer than headersTimeoutMs; complete headers are served', async () => {
    t = await startTestService({ ...quietHub, limits: { headersTimeoutMs: 300 } });
    const slow = await rawExchange(t.service.port, 'GET /healthz HTTP/1.1\r\nHost: x\r\n'); // never ends its headers
    assert.match(slow, /^HTTP\/1\.1 408 Request Timeout/);
    const r = await fetch(`${t.service.url}/healthz`);
    assert.equal(r.status, 200);
  });

  it('answers a malformed chunk size with 400 before closing (the attack run left it unanswered)', async () => {
    t = await startTestService(quietHub);
    const answer = await rawExchange(
      t.service.port,
      'POST /api/v1/states/write HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer admin-token-demo\r\n' +
        'Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nZZ\r\n{}\r\n0\r\n\r\n',
    );
    assert.match(answer, /^HTTP\/1\.1 400 Bad Request\r\n/);
    assert.match(answer, /HPE_INVALID_CHUNK_SIZE/);
  });

  it('answers WebSocket pings up to maxPingsPerSecond, closes with 1008 past it, and logs it', async () => {
    const lines: string[] = [];
    t = await startTestService({ ...quietHub, log: (line) => lines.push(line) });
    const max = defaultLimits.maxPingsPerSecond;
    const c = await RawHubClient.connect(t.service.url, demo.token1);
    let pongs = 0;
    c.ws.on('pong', () => pongs++);
    for (let i = 0; i < max; i++) c.ws.ping();
    await c.waitFor(() => pongs === max);
    assert.equal(c.closeCode, undefined, 'open at the limit');
    t.clock.nowMs += 1000; // a new second: a new allowance, then one past it
    for (let i = 0; i <= max; i++) c.ws.ping();
    await c.waitFor(() => c.closeCode !== undefined);
    assert.equal(c.closeCode, 1008);
    assert.equal(pongs, 2 * max);
    assert.ok(lines.some((l) => new RegExp(`over ${max} WebSocket pings in a second; closing \\(1008\\)`).test(l)));
    c.ws.terminate();
  });
});
