/**
 * The setup server on a board (decisions 11): the SDK's `http` Server accepts
 * the connection and reads the request line; this reads the headers and body
 * and writes the answer of the routes (src/setup/handler.ts).
 *
 * Why not the SDK server's own reading: it asks for the answer synchronously
 * (`prepareResponse`) right after the body, and `POST /setup` answers only once
 * the settings were tried over the network. `detach` is safe only inside the
 * `status` callback (the server checks for a detached socket there alone), so
 * every connection is detached there and carried on here: headers up to 4 KiB,
 * a body up to `MaxBodyBytes` (413 before reading a larger one, 400 for a bad
 * length or a chunked body), the answer written in pieces the socket can take,
 * and each connection closed after 15 s when its request is not read by then, 50 s once it is (the trial). Nothing here throws into the
 * socket's callback (that would abort the machine): a failure closes the
 * connection. At most 4 connections at a time; more are closed at once.
 */
import { Server } from 'http';
import { messageOf, warn } from '../../src/errors.js';
import type { Clock, Logger } from '../../src/ports.js';
import { answer, MaxBodyBytes, type SetupAnswer, type SetupHandler } from '../../src/setup/handler.js';

/** The SDK socket a detached connection is. */
interface ServerSocket {
  callback?: ((message: number, value?: unknown) => void) | undefined;
  read(type?: unknown, until?: unknown): unknown;
  write(...items: unknown[]): unknown;
  close(): void;
}

const MaxHeadBytes = 4096;
const MaxConnections = 4;
const ConnectionMs = 15_000;
/** The longest wait for an answer once the request is read (a trial), before the connection is closed. */
const AnswerMs = 50_000;

/** Serves `handler` on `port`; `close` stops listening and ends every connection. */
export function startSetupServer(port: number, handler: SetupHandler, clock: Clock, logger: Logger): () => void {
  const open = new Set<() => void>();
  const server = new Server({ port });
  const detach = (server as unknown as { detach(connection: unknown): ServerSocket }).detach.bind(server);
  server.callback = function (message, path, method) {
    if (message !== Server.status) return;
    try {
      const socket = detach(this);
      if (open.size >= MaxConnections) socket.close();
      else connection(socket, String(method), String(path));
    } catch (e) {
      warn(logger, 'setup: connection failed', { error: messageOf(e) });
    }
  };

  function connection(socket: ServerSocket, method: string, path: string): void {
    let head = '';
    let length = 0;
    let authorization: string | undefined;
    let phase: 'head' | 'body' | 'handling' | 'answer' = 'head';
    let body = new Uint8Array(0);
    let received = 0;
    let out = new ArrayBuffer(0);
    let sent = 0;
    let after: (() => void) | undefined;
    const end = (): void => {
      clock.clearTimer(timer);
      open.delete(end);
      socket.callback = undefined;
      try {
        socket.close();
      } catch {
        // closed underneath
      }
      const then = after;
      after = undefined;
      then?.();
    };
    let timer = clock.setTimer(end, ConnectionMs);
    open.add(end);

    const reply = (a: SetupAnswer): void => {
      if (phase === 'answer') return;
      phase = 'answer';
      const bytes = ArrayBuffer.fromString(method === 'HEAD' ? '' : a.body);
      let text = `HTTP/1.1 ${a.status} ${a.status < 300 ? 'OK' : 'Error'}\r\nConnection: close\r\n`;
      text += `Content-Length: ${bytes.byteLength}\r\n`;
      for (let i = 0; i + 1 < a.headers.length; i += 2) text += `${a.headers[i]}: ${a.headers[i + 1]}\r\n`;
      const start = ArrayBuffer.fromString(text + '\r\n');
      const whole = new Uint8Array(start.byteLength + bytes.byteLength);
      whole.set(new Uint8Array(start));
      whole.set(new Uint8Array(bytes), start.byteLength);
      out = whole.buffer;
      after = a.after;
      write();
    };

    // Pieces that fit the socket's free space; once all is written, the next writable event closes.
    const write = (): void => {
      if (phase !== 'answer') return;
      if (sent >= out.byteLength) return end();
      const room = Number(socket.write());
      if (room <= 0) return;
      const piece = out.slice(sent, sent + room);
      sent += piece.byteLength;
      socket.write(piece);
    };

    const read = (): void => {
      while (phase === 'head') {
        const line = socket.read(String, '\n');
        if (typeof line !== 'string' || line === '') return;
        head += line;
        if (head.length > MaxHeadBytes) return reply(answer(431, { error: 'headers too large' }));
        if (!line.endsWith('\n')) return;
        const text = head.slice(0, -1).replace(/\r$/, '');
        head = '';
        if (text === '') {
          if (length > MaxBodyBytes) return reply(answer(413, { error: `body over ${MaxBodyBytes} B` }));
          body = new Uint8Array(length);
          phase = 'body';
          break;
        }
        const at = text.indexOf(':');
        const name = text.slice(0, at).trim().toLowerCase();
        const value = text.slice(at + 1).trim();
        if (name === 'authorization') authorization = value;
        else if (name === 'transfer-encoding') return reply(answer(400, { error: 'chunked body not supported' }));
        else if (name === 'content-length') {
          if (!/^\d{1,9}$/.test(value)) return reply(answer(400, { error: 'bad content-length' }));
          length = Number(value);
        }
      }
      if (phase !== 'body') return;
      const count = Math.min(Number(socket.read()), body.length - received);
      if (count > 0) {
        body.set(new Uint8Array(socket.read(ArrayBuffer, count) as ArrayBuffer), received);
        received += count;
      }
      if (received < body.length) return;
      let text: string;
      try {
        text = String.fromArrayBuffer(body.slice().buffer);
      } catch {
        return reply(answer(400, { error: 'body is not UTF-8' }));
      }
      phase = 'handling';
      // Reading is over: the trial (a Wi-Fi join and a request, 20 s each at most) gets its own bound.
      clock.clearTimer(timer);
      timer = clock.setTimer(end, AnswerMs);
      handler.handle({ method, path, authorization, body: length > 0 ? text : undefined }).then(
        (a) => {
          if (open.has(end)) reply(a);
          else a.after?.();
        },
        () => end(),
      );
    };

    socket.callback = (message) => {
      try {
        if (message === 2) read();
        else if (message === 3) write();
        else if (message < 0) end();
      } catch (e) {
        warn(logger, 'setup: connection failed', { error: messageOf(e) });
        end();
      }
    };
    // The server read the request line; what came with it is already waiting.
    socket.callback(2, socket.read());
  }

  return () => {
    for (const end of [...open]) end();
    server.close();
  };
}
