// The firmware-on-XS cases that need no service: each failure mode of the
// SDK's network modules through the firmware's adapters (and the bare fake
// `http` aborting, as the SDK does), and the token's provisioning.
import { strict as assert } from 'node:assert';
import { FirmwareRun } from './firmware-host.mjs';
import { createServer as createHttpsServer } from 'node:https';
import { join } from 'node:path';
import {
  adapterRun,
  assertHealthy,
  clock,
  closedPort,
  manifest,
  rawServer,
  result,
  root,
} from './firmware-support.mjs';

const { generatePki, hasOpenssl } = await import(join(root, 'build', 'host-sim', 'tls', 'pki.js'));

export const failureModes = [
  [
    'lin: a refused connection (write failed in the callback) rejects the request with network',
    async () => {
      const run = await adapterRun('lin');
      try {
        await run.evaluate(`__fw.request('r', 'http://127.0.0.1:${await closedPort()}/api', 'POST', '{"a":1}')`);
        const [r] = await result(run, 'r');
        assert.equal(r.code, 'network', JSON.stringify(r));
        assert.match(r.error, /write failed/);
        assertHealthy(run);
      } finally {
        await run.stop();
      }
    },
  ],
  [
    'lin: the bare fake http module aborts on a refused connection, as the SDK does',
    async () => {
      const run = await adapterRun('lin');
      try {
        await run.evaluate(`__fw.rawRequest('raw', '127.0.0.1', ${await closedPort()})`);
        await run.until(() => run.aborted !== undefined, 5_000).catch(() => undefined);
        assert.match(String(run.aborted), /write failed/);
      } finally {
        await run.stop();
      }
    },
  ],
  [
    'esp32: a refused connection (error callback) rejects the request with network',
    async () => {
      const run = await adapterRun('esp32');
      try {
        await run.evaluate(`__fw.request('r', 'http://127.0.0.1:${await closedPort()}/', 'GET')`);
        const [r] = await result(run, 'r');
        assert.equal(r.code, 'network', JSON.stringify(r));
        assertHealthy(run);
      } finally {
        await run.stop();
      }
    },
  ],
  [
    'a connection reset in the middle of the answer rejects with network',
    async () => {
      const server = await rawServer((socket) =>
        socket.once('data', () => {
          socket.write('HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n{"partial":');
          setImmediate(() => socket.resetAndDestroy());
        }),
      );
      for (const flavor of ['lin', 'esp32']) {
        const run = await adapterRun(flavor);
        try {
          await run.evaluate(`__fw.request('r', 'http://127.0.0.1:${server.port}/', 'GET')`);
          const [r] = await result(run, 'r');
          assert.equal(r.code, 'network', `${flavor}: ${JSON.stringify(r)}`);
          assertHealthy(run);
        } finally {
          await run.stop();
        }
      }
      await server.close();
    },
  ],
  [
    'a malformed status line (thrown in the SDK callback) rejects with network',
    async () => {
      const server = await rawServer((socket) => socket.once('data', () => socket.end('HELLO\r\n\r\n')));
      const run = await adapterRun('lin');
      try {
        await run.evaluate(`__fw.request('r', 'http://127.0.0.1:${server.port}/', 'GET')`);
        const [r] = await result(run, 'r');
        assert.equal(r.code, 'network', JSON.stringify(r));
        assert.match(r.error, /malformed status line/);
        assertHealthy(run);
      } finally {
        await run.stop();
        await server.close();
      }
    },
  ],
  [
    'a server that accepts and never answers: the request times out (10 s virtual)',
    async () => {
      const server = await rawServer(() => undefined);
      const run = await adapterRun('lin');
      try {
        await run.evaluate(`__fw.request('r', 'http://127.0.0.1:${server.port}/', 'GET')`);
        const [r] = await result(run, 'r', 30_000);
        assert.equal(r.code, 'timeout', JSON.stringify(r));
        assertHealthy(run);
      } finally {
        await run.stop();
        await server.close();
      }
    },
  ],
  [
    'WebSocket refused (lin and esp32) closes the connection with a reason',
    async () => {
      const port = await closedPort();
      for (const flavor of ['lin', 'esp32']) {
        const run = await adapterRun(flavor);
        try {
          await run.evaluate(`__fw.webSocket('w', 'ws://127.0.0.1:${port}/hub', 'x')`);
          const events = await result(run, 'w');
          assert.equal(events.at(-1).event, 'close', `${flavor}: ${JSON.stringify(events)}`);
          assertHealthy(run);
        } finally {
          await run.stop();
        }
      }
    },
  ],
  [
    'WebSocket: the upgrade accepted, then the connection reset: closed with a reason',
    async () => {
      const server = await rawServer((socket) =>
        socket.once('data', () => {
          socket.write(
            'HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n' +
              'Sec-WebSocket-Accept: x\r\n\r\n',
          );
          socket.write(Buffer.from([0x81, 2, 0x68, 0x69]));
          setTimeout(() => socket.resetAndDestroy(), 20);
        }),
      );
      const run = await adapterRun('lin');
      try {
        await run.evaluate(`__fw.webSocket('w', 'ws://127.0.0.1:${server.port}/hub', 'x')`);
        assert.ok(await run.until(() => run.results.some((r) => r.event === 'close'), 15_000));
        const events = run.results.map((r) => r.event);
        assert.deepEqual(events.slice(0, 2), ['open', 'message'], JSON.stringify(run.results));
        assertHealthy(run);
      } finally {
        await run.stop();
        await server.close();
      }
    },
  ],
  [
    'WebSocket: a message over 16384 UTF-8 bytes (fewer characters) closes the connection with a reason',
    async () => {
      // 5462 three-byte characters: 16386 bytes, under the bound in characters.
      const text = Buffer.from('\u20ac'.repeat(5462));
      const server = await rawServer((socket) =>
        socket.once('data', () => {
          socket.write(
            'HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n' +
              'Sec-WebSocket-Accept: x\r\n\r\n',
          );
          socket.write(Buffer.from([0x81, 126, text.length >> 8, text.length & 0xff]));
          socket.write(text);
        }),
      );
      const run = await adapterRun('lin');
      try {
        await run.evaluate(`__fw.webSocket('w', 'ws://127.0.0.1:${server.port}/hub', 'x')`);
        assert.ok(await run.until(() => run.results.some((r) => r.event === 'close'), 15_000));
        const events = run.results.map((r) => r.event);
        assert.deepEqual(events, ['open', 'close'], JSON.stringify(run.results));
        assert.equal(run.results.at(-1).reason, 'message over 16384 B');
        assertHealthy(run);
      } finally {
        await run.stop();
        await server.close();
      }
    },
  ],
];

/** An https server on port 0 with a fresh CA (openssl), answering 200 "secure". */
async function httpsServer() {
  const pki = generatePki({ ipAddresses: ['127.0.0.1'] });
  const server = createHttpsServer({ cert: pki.certPem + pki.caPem, key: pki.keyPem }, (_req, res) =>
    res.end('secure'),
  );
  await new Promise((done) => server.listen(0, '127.0.0.1', done));
  const der = Buffer.from(pki.caPem.replace(/-----[A-Z ]+-----|\s/g, ''), 'base64').toString('latin1');
  return { port: server.address().port, der, close: () => new Promise((done) => server.close(done)) };
}

failureModes.push([
  'https through SecureSocket: the CA given as certificate is trusted; without it the request rejects with network',
  async () => {
    if (!hasOpenssl()) return 'skipped: needs openssl for the certificates';
    const server = await httpsServer();
    const run = await adapterRun('lin');
    try {
      const url = `https://127.0.0.1:${server.port}/`;
      await run.evaluate(`__fw.request('ok', '${url}', 'GET', undefined, ${JSON.stringify(server.der)})`);
      const [ok] = await result(run, 'ok');
      assert.equal(ok.status, 200, JSON.stringify(ok));
      assert.equal(ok.body, 'secure');
      await run.evaluate(`__fw.request('untrusted', '${url}', 'GET')`);
      const [untrusted] = await result(run, 'untrusted');
      assert.equal(untrusted.code, 'network', JSON.stringify(untrusted));
      assertHealthy(run);
    } finally {
      await run.stop();
      await server.close();
    }
  },
]);

export const provisioning = [
  [
    'an esp32 image has no token: the agent does not start and says how to provision it',
    async () => {
      const run = new FirmwareRun({ flavor: 'esp32', clock });
      try {
        await run.start(false, { ...manifest.config, serviceUrl: `http://127.0.0.1:${await closedPort()}` });
        await run.runFor(1_000);
        assert.ok(
          run.logs.some((l) => /cannot start: .*token/.test(l)),
          run.logs.join('\n'),
        );
        assert.ok(run.logs.some((l) => l.includes('Preference.set("config"')));
        assert.ok(!run.logs.some((l) => l.includes('agent booting')));
        assertHealthy(run);
      } finally {
        await run.stop();
      }
    },
  ],
  [
    'the token provisioned into preferences (domain config) starts the agent',
    async () => {
      const flash = new Map([['config\u0000token', { value: 'device-token-demo-001' }]]);
      const run = new FirmwareRun({ flavor: 'esp32', clock, flash });
      try {
        await run.start(false, { ...manifest.config, serviceUrl: `http://127.0.0.1:${await closedPort()}` });
        await run.runFor(5_000);
        assert.ok(
          run.logs.some((l) => l.includes('agent booting')),
          run.logs.join('\n'),
        );
        assert.ok(
          run.logs.some((l) => /config: not read/.test(l)),
          run.logs.join('\n'),
        );
        assert.ok(!run.logs.some((l) => l.includes('device-token-demo-001')), 'the token is never logged');
        assertHealthy(run);
      } finally {
        await run.stop();
      }
    },
  ],
];
