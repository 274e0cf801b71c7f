// The firmware-on-XS cases of the kept-alive HTTP connection (targets/moddable/http.ts over the fake
// `socket`, lin and esp32 failure modes): requests share one connection; an answer split across many
// fragments, chunked, `Connection: close`, a server that closes the idle connection (its keep-alive
// timeout) or drops it as a request arrives, a drop during a long write, the idle close, binary bodies
// and response headers. Each server here counts the connections it accepted.
import { strict as assert } from 'node:assert';
import { adapterRun, assertHealthy, rawServer, result } from './firmware-support.mjs';

/**
 * A server that reads HTTP/1.1 requests (head, then Content-Length bytes) on every connection and calls
 * `answer({ socket, conn, index, body, head })` for each: `conn` counts connections from 0, `index`
 * requests on that connection from 0. `connections` and `requests` count what arrived.
 */
async function keepAliveServer(answer) {
  const counts = { connections: 0, requests: 0, bodies: [] };
  const server = await rawServer((socket) => {
    const conn = counts.connections++;
    let buffer = Buffer.alloc(0);
    let index = 0;
    socket.on('error', () => undefined);
    socket.on('data', (data) => {
      buffer = Buffer.concat([buffer, data]);
      for (;;) {
        const end = buffer.indexOf('\r\n\r\n');
        if (end < 0) return;
        const head = buffer.subarray(0, end).toString('latin1');
        const length = Number(/content-length: *(\d+)/i.exec(head)?.[1] ?? 0);
        if (buffer.length < end + 4 + length) return;
        const body = buffer.subarray(end + 4, end + 4 + length).toString('utf8');
        buffer = buffer.subarray(end + 4 + length);
        counts.requests++;
        counts.bodies.push(body);
        answer({ socket, conn, index: index++, body, head });
      }
    });
  });
  return { ...server, counts };
}

const ok = (text, extra = '') => `HTTP/1.1 200 OK\r\nContent-Length: ${Buffer.byteLength(text)}\r\n${extra}\r\n${text}`;

/** Runs `fn(run)` on a fresh worker of `flavor`, checks that it never aborted, stops it. */
async function withRun(flavor, fn) {
  const run = await adapterRun(flavor);
  try {
    await fn(run);
    assertHealthy(run);
  } finally {
    await run.stop();
  }
}

/** One request through the firmware's transport (the worker keeps it between calls); its result. */
async function ask(run, tag, url, method = 'GET', body = undefined, binary = false) {
  await run.evaluate(
    `__fw.request(${JSON.stringify(tag)}, '${url}', '${method}', ${JSON.stringify(body)}, undefined, ${binary})`,
  );
  const [r] = await result(run, tag, 30_000);
  return r;
}

// A chunked answer with a header the agent reads (Retry-After) and a UTF-8 body.
const CHUNKED =
  'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nRetry-After: 7\r\nX-Many: a\r\nX-Many: b\r\n\r\n' +
  '5;ext=1\r\n{"a":\r\n' +
  'c\r\n"\u00e9t\u00e9 \u20ac"}\r\n'.replace('c', Buffer.byteLength('"\u00e9t\u00e9 \u20ac"}').toString(16)) +
  '0\r\nTrailer: x\r\n\r\n';

export const keepAlive = [
  [
    'kept alive: 40 requests (GET and POST, UTF-8 bodies) over one connection',
    async () => {
      const server = await keepAliveServer(({ socket, body }) => socket.write(ok(`got ${body}`)));
      await withRun('lin', async (run) => {
        const url = `http://127.0.0.1:${server.port}/api`;
        for (let i = 0; i < 40; i++) {
          const r = await ask(run, `k${i}`, url, i % 2 ? 'POST' : 'GET', i % 2 ? `{"\u00e9":${i}}` : undefined);
          assert.equal(r.status, 200, JSON.stringify(r));
          assert.equal(r.body, i % 2 ? `got {"\u00e9":${i}}` : 'got ');
        }
        assert.equal(server.counts.requests, 40);
        assert.equal(server.counts.connections, 1, 'one connection carried every request');
        assert.equal(run.connects.length, 1);
      });
      await server.close();
    },
  ],
  [
    'requests made at once take turns in order on one connection; a bad URL fails alone',
    async () => {
      const server = await keepAliveServer(({ socket, body }) => socket.write(ok(`got ${body}`)));
      await withRun('lin', async (run) => {
        const url = `http://127.0.0.1:${server.port}/api`;
        const tags = ['a', 'b', 'c', 'd', 'e'];
        for (const t of tags) await run.evaluate(`__fw.request('${t}', '${url}', 'POST', '${t}')`);
        await run.evaluate(`__fw.request('bad', 'ftp://127.0.0.1/', 'GET')`);
        for (const t of tags) assert.equal((await result(run, t))[0].body, `got ${t}`);
        const [bad] = await result(run, 'bad');
        assert.equal(bad.code, 'config.invalid', JSON.stringify(bad));
        assert.equal((await ask(run, 'after', url, 'POST', 'z')).body, 'got z');
        assert.deepEqual(server.counts.bodies, [...tags, 'z'], 'sent in the order they were made');
        assert.equal(server.counts.connections, 1, 'one connection, the bad URL included');
      });
      await server.close();
    },
  ],
  [
    'beyond 8 waiting, a request is refused (overflow); waiting ones time out from their call (10 s virtual)',
    async () => {
      // Nothing is answered but `later`.
      const server = await keepAliveServer(({ socket, body }) => body === 'later' && socket.write(ok(`got ${body}`)));
      await withRun('lin', async (run) => {
        const url = `http://127.0.0.1:${server.port}/api`;
        const t0 = run.nowMs;
        for (let i = 0; i <= 9; i++) await run.evaluate(`__fw.request('w${i}', '${url}', 'POST', 'w${i}')`);
        const [over] = await result(run, 'w9', 1_000);
        assert.equal(over.code, 'overflow', JSON.stringify(over));
        for (let i = 0; i <= 8; i++) {
          const [r] = await result(run, `w${i}`, 30_000);
          assert.equal(r.code, 'timeout', `w${i}: ${JSON.stringify(r)}`);
        }
        // Each waited at most its 10 s from its own call, not 10 s per request ahead of it.
        assert.ok(run.nowMs - t0 < 15_000, `all nine ended by ${run.nowMs - t0} ms`);
        assert.equal(server.counts.bodies[0], 'w0', 'the first went out first');
        assert.equal((await ask(run, 'later', url, 'POST', 'later')).body, 'got later', 'the next one is answered');
        assert.ok(server.counts.connections >= 2, 'on a new connection (each timeout in flight closed one)');
      });
      await server.close();
    },
  ],
  [
    'an answer split at every offset (chunked, headers, UTF-8) reads the same, on one connection',
    async () => {
      const bytes = Buffer.from(CHUNKED, 'utf8');
      const server = await keepAliveServer(({ socket, index }) => {
        // Request n gets the answer in two TCP writes split at byte n (the second after a pause).
        socket.write(bytes.subarray(0, index));
        setTimeout(() => socket.write(bytes.subarray(index)), 15);
      });
      await withRun('lin', async (run) => {
        const url = `http://127.0.0.1:${server.port}/`;
        for (let at = 0; at <= bytes.length; at++) {
          const r = await ask(run, `s${at}`, url);
          assert.equal(r.status, 200, `split at ${at}: ${JSON.stringify(r)}`);
          assert.equal(r.body, '{"a":"\u00e9t\u00e9 \u20ac"}', `split at ${at}`);
          assert.equal(r.headers['retry-after'], '7');
          assert.equal(r.headers['x-many'], 'a, b');
        }
        assert.equal(server.counts.connections, 1);
      });
      await server.close();
      return `${bytes.length + 1} splits`;
    },
  ],
  [
    'an answer in one-byte fragments, and a binary body as bytes',
    async () => {
      const image = Buffer.from([0, 1, 2, 0xff, 0xfe, 0x80, 10, 13]);
      const server = await keepAliveServer(({ socket, index }) => {
        const answer =
          index === 0
            ? Buffer.from(CHUNKED, 'utf8')
            : Buffer.concat([Buffer.from(`HTTP/1.1 200 OK\r\nContent-Length: ${image.length}\r\n\r\n`), image]);
        let i = 0;
        const next = () => i < answer.length && (socket.write(answer.subarray(i, ++i)), setTimeout(next, 1));
        next();
      });
      await withRun('esp32', async (run) => {
        const url = `http://127.0.0.1:${server.port}/`;
        const text = await ask(run, 'text', url);
        assert.equal(text.body, '{"a":"\u00e9t\u00e9 \u20ac"}', JSON.stringify(text));
        const bin = await ask(run, 'bin', url, 'GET', undefined, true);
        assert.deepEqual(bin.bytes, [...image], JSON.stringify(bin));
        assert.equal(bin.body, '');
        assert.equal(server.counts.connections, 1);
      });
      await server.close();
    },
  ],
  [
    'Connection: close: the answer is read, the next request opens a new connection',
    async () => {
      const server = await keepAliveServer(({ socket, conn }) =>
        conn === 0 ? socket.end(ok('bye', 'Connection: close\r\n')) : socket.write(ok('again')),
      );
      await withRun('lin', async (run) => {
        const url = `http://127.0.0.1:${server.port}/`;
        assert.equal((await ask(run, 'a', url)).body, 'bye');
        assert.equal((await ask(run, 'b', url)).body, 'again');
        assert.equal((await ask(run, 'c', url)).body, 'again');
        assert.equal(server.counts.connections, 2);
      });
      await server.close();
    },
  ],
  [
    'the server closes the idle connection (its keep-alive timeout): the next request opens a new one',
    async () => {
      const server = await keepAliveServer(({ socket }) => {
        socket.write(ok('one'));
        setTimeout(() => socket.end(), 5);
      });
      for (const flavor of ['lin', 'esp32']) {
        const before = server.counts.connections;
        await withRun(flavor, async (run) => {
          const url = `http://127.0.0.1:${server.port}/`;
          assert.equal((await ask(run, 'a', url)).body, 'one');
          await run.runFor(500);
          assert.equal((await ask(run, 'b', url)).body, 'one', flavor);
          assert.equal(server.counts.connections - before, 2, flavor);
        });
      }
      await server.close();
    },
  ],
  [
    'the server drops a kept-alive connection as a request arrives: sent once more on a new one; twice: network',
    async () => {
      // The second request on every connection is dropped unanswered (the keep-alive race).
      const server = await keepAliveServer(({ socket, index }) =>
        index === 0 ? socket.write(ok('fine')) : socket.destroy(),
      );
      await withRun('lin', async (run) => {
        const url = `http://127.0.0.1:${server.port}/`;
        assert.equal((await ask(run, 'a', url)).body, 'fine');
        const b = await ask(run, 'b', url, 'POST', '{"n":1}');
        assert.equal(b.body, 'fine', JSON.stringify(b));
        assert.equal(server.counts.connections, 2);
      });
      // A fresh connection dropped in flight is not retried: the request fails with network.
      const drop = await keepAliveServer(({ socket }) => socket.destroy());
      await withRun('esp32', async (run) => {
        const r = await ask(run, 'x', `http://127.0.0.1:${drop.port}/`, 'POST', '{"n":2}');
        assert.equal(r.code, 'network', JSON.stringify(r));
        assert.equal(drop.counts.connections, 1, 'not retried on a fresh connection');
      });
      await server.close();
      await drop.close();
    },
  ],
  [
    'closed during a long write (a 20 KB body in pieces): network, and the next request works',
    async () => {
      let first = true;
      const server = await rawServer((socket) => {
        socket.on('error', () => undefined);
        if (first) {
          first = false;
          socket.once('data', () => socket.resetAndDestroy());
        } else socket.once('data', () => socket.write(ok('later')));
      });
      for (const flavor of ['lin', 'esp32']) {
        first = true;
        await withRun(flavor, async (run) => {
          const url = `http://127.0.0.1:${server.port}/`;
          const r = await ask(run, 'w', url, 'POST', JSON.stringify({ v: 'x'.repeat(20_000) }));
          assert.equal(r.code, 'network', `${flavor}: ${JSON.stringify(r)}`);
          assert.equal((await ask(run, 'n', url)).body, 'later', flavor);
        });
      }
      await server.close();
    },
  ],
  [
    'malformed answers (header, chunk size, content-length, bytes after the end) reject with network',
    async () => {
      const bad = [
        'HTTP/1.1 200 OK\r\nno colon here\r\n\r\n',
        'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n',
        'HTTP/1.1 200 OK\r\nContent-Length: -3\r\n\r\n',
        'HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nokEXTRA',
        'HTTP/2 200\r\n\r\n',
      ];
      const server = await keepAliveServer(({ socket, conn }) => socket.write(bad[conn] ?? ok('x')));
      await withRun('lin', async (run) => {
        for (let i = 0; i < bad.length; i++) {
          const r = await ask(run, `m${i}`, `http://127.0.0.1:${server.port}/`);
          assert.equal(r.code, 'network', `${JSON.stringify(bad[i])}: ${JSON.stringify(r)}`);
        }
        assert.equal((await ask(run, 'good', `http://127.0.0.1:${server.port}/`)).body, 'x');
      });
      await server.close();
    },
  ],
  [
    'an idle connection is closed by the board after IDLE_MS (30 s virtual)',
    async () => {
      let closedAt;
      const server = await keepAliveServer(({ socket }) => {
        socket.on('end', () => (closedAt ??= 'end'));
        socket.write(ok('idle'));
      });
      await withRun('lin', async (run) => {
        assert.equal((await ask(run, 'a', `http://127.0.0.1:${server.port}/`)).body, 'idle');
        const t0 = run.nowMs;
        await run.runFor(25_000);
        assert.equal(closedAt, undefined, 'still open after 25 s');
        assert.ok(await run.until(() => closedAt !== undefined, 10_000), 'closed by 35 s');
        // t0 is read up to one check (250 ms virtual) after the answer armed the idle timer.
        assert.ok(run.nowMs - t0 >= 29_500, `closed after ${run.nowMs - t0} ms`);
      });
      await server.close();
    },
  ],
];
