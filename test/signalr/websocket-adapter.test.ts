/**
 * The Node WebSocketFactory adapter against a real `ws` server on a loopback
 * port: headers reach the server, text frames both ways, one onClose per
 * socket whatever ends it, and a refused upgrade names its status.
 */
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import { NodeWebSocketFactory } from '../../targets/node/websocket.js';

interface Events {
  opened: number;
  messages: string[];
  closes: string[];
  done: Promise<void>;
}

function track(): {
  handlers: { onOpen(): void; onMessage(d: string): void; onClose(r: string): void };
  events: Events;
} {
  let finish: () => void = () => undefined;
  const events: Events = { opened: 0, messages: [], closes: [], done: new Promise((r) => (finish = r)) };
  return {
    events,
    handlers: {
      onOpen: () => void events.opened++,
      onMessage: (d) => void events.messages.push(d),
      onClose: (r) => {
        events.closes.push(r);
        finish();
      },
    },
  };
}

describe('targets/node/websocket', () => {
  let server: Server;
  let wss: WebSocketServer;
  let base: string;
  const upgrades: IncomingMessage[] = [];
  let onConnection: (socket: WebSocket) => void = () => undefined;

  before(async () => {
    server = createServer();
    wss = new WebSocketServer({ noServer: true });
    server.on('upgrade', (request, socket, head) => {
      upgrades.push(request);
      if (request.headers.authorization !== 'Bearer good') {
        socket.end('HTTP/1.1 401 Unauthorized\r\nContent-Length: 0\r\n\r\n');
        return;
      }
      wss.handleUpgrade(request, socket, head, (ws) => onConnection(ws));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `ws://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  after(async () => {
    for (const client of wss.clients) client.terminate();
    wss.close();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('sends the headers, exchanges text frames, and reports the server closing once', async () => {
    onConnection = (ws) => {
      ws.on('message', (data) => {
        ws.send(`echo:${String(data)}`);
        ws.close(1000, 'bye');
      });
    };
    const { handlers, events } = track();
    const connection = new NodeWebSocketFactory().connect(
      `${base}/hubs/properties?id=a%20b`,
      { Authorization: 'Bearer good' },
      {
        ...handlers,
        onOpen: () => {
          handlers.onOpen();
          connection.send('héllo\u001e');
        },
      },
    );
    await events.done;
    assert.equal(upgrades.at(-1)?.url, '/hubs/properties?id=a%20b');
    assert.equal(events.opened, 1);
    assert.deepEqual(events.messages, ['echo:héllo\u001e']);
    assert.deepEqual(events.closes, ['closed (1000 bye)']);
    connection.close();
    connection.send('after close is ignored');
  });

  it('reports a refused upgrade with its HTTP status', async () => {
    const { handlers, events } = track();
    new NodeWebSocketFactory().connect(`${base}/hubs/properties`, { Authorization: 'Bearer bad' }, handlers);
    await events.done;
    assert.equal(events.opened, 0);
    assert.deepEqual(events.closes, ['upgrade refused: HTTP 401']);
  });

  it('reports a refused TCP connection, and a close by the client, once each', async () => {
    const { handlers, events } = track();
    new NodeWebSocketFactory().connect('ws://127.0.0.1:1/x', {}, handlers);
    await events.done;
    assert.equal(events.closes.length, 1);
    assert.match(events.closes[0] ?? '', /ECONNREFUSED/);

    onConnection = () => undefined;
    const second = track();
    const connection = new NodeWebSocketFactory().connect(
      `${base}/x`,
      { Authorization: 'Bearer good' },
      {
        ...second.handlers,
        onOpen: () => connection.close(),
      },
    );
    await second.events.done;
    assert.equal(second.events.closes.length, 1);
  });
});
