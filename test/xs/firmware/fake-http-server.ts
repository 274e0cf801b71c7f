/**
 * A fake of the Moddable SDK's `http` Server, written from its documentation
 * (documentation/network/network.md, "class HTTP Server") and the module's
 * behaviour, over the fake `socket` Listener.
 *
 * - `new Server({port})` (default 80) listens; each connection is a request
 *   object whose `callback` is the server's, called with `this` the request:
 *   1 connection, 2 status (path, method), 3 header (lower-case name, value),
 *   4 headersComplete (return String or ArrayBuffer to get the body with
 *   requestComplete; anything else ignores it), 6 requestComplete, 8
 *   prepareResponse (return `{status, headers, body}`; a string or buffer
 *   body gets a Content-Length counted in characters for a string, as the SDK
 *   does), 10 responseComplete, -1 error (disconnected or malformed).
 * - The request line is read with `socket.read(String, "\n")`; fewer than
 *   three parts throws "unexpected status format", a protocol other than
 *   HTTP/1.1 or 1.0 "bad protocol ID": the connection ends with -1.
 * - `detach(request)`, inside the status callback (the one place the SDK
 *   checks for it), removes the request from the server and returns its
 *   socket with no callback; bytes already received stay readable there.
 * - What a callback throws is caught and ends the connection with -1; what
 *   the -1 callback throws escapes (an abort on a device).
 */
import { Listener, Socket } from './fake-socket.js';

type Callback = (this: Connection, message: number, value?: unknown, etc?: unknown) => unknown;

interface Connection {
  socket: Socket | undefined;
  server: Server | undefined;
  callback: Callback | undefined;
  state: number;
  line: string;
  total: number;
  want: unknown;
  body: string;
  response?: { status?: number; headers?: string[]; body?: unknown } | undefined;
}

export class Server {
  static readonly connection = 1;
  static readonly status = 2;
  static readonly header = 3;
  static readonly headersComplete = 4;
  static readonly requestFragment = 5;
  static readonly requestComplete = 6;
  static readonly prepareResponse = 8;
  static readonly responseFragment = 9;
  static readonly responseComplete = 10;
  static readonly error = -1;

  declare callback: Callback | undefined;
  connections: Connection[] = [];
  #listener: Listener | undefined;

  constructor(dictionary: Record<string, unknown> = {}) {
    const listener = new Listener({ port: 80, ...dictionary });
    this.#listener = listener;
    listener.callback = () => {
      const socket = new Socket({ listener });
      const request: Connection = {
        socket,
        server: this,
        callback: this.callback,
        state: 1,
        line: '',
        total: 0,
        want: undefined,
        body: '',
      };
      this.connections.push(request);
      socket.callback = (message: number) => serve(request, message);
      request.callback?.call(request, Server.connection);
    };
  }

  close(): void {
    for (const request of this.connections) end(request);
    this.connections = [];
    this.#listener?.close();
    this.#listener = undefined;
  }

  detach(request: Connection): Socket {
    const at = this.connections.indexOf(request);
    if (at < 0) throw new Error();
    this.connections.splice(at, 1);
    const socket = request.socket as Socket;
    socket.callback = undefined;
    request.socket = undefined;
    request.state = 11;
    return socket;
  }
}

function end(request: Connection): void {
  const socket = request.socket;
  request.socket = undefined;
  request.server?.connections.splice(request.server.connections.indexOf(request) >>> 0, 1);
  request.callback = undefined;
  try {
    socket?.close();
  } catch {
    // closed underneath
  }
}

function serve(request: Connection, message: number): void {
  const socket = request.socket;
  if (socket === undefined) return;
  const call = (m: number, value?: unknown, etc?: unknown): unknown => request.callback?.call(request, m, value, etc);
  try {
    if (message === 2) {
      while (request.state === 1 || request.state === 2) {
        const piece = socket.read(String, '\n') as string | undefined;
        if (!piece) return;
        request.line += piece;
        if (!request.line.endsWith('\n')) return;
        const line = request.line;
        request.line = '';
        if (line === '\r\n' || line === '\n') {
          request.want = call(Server.headersComplete);
          request.state = request.total > 0 ? 5 : 7;
          break;
        }
        if (request.state === 1) {
          const parts = line.split(' ');
          if (parts.length < 3) throw new Error('unexpected status format');
          const protocol = (parts.pop() as string).trim();
          if (protocol !== 'HTTP/1.1' && protocol !== 'HTTP/1.0') throw new Error('bad protocol ID');
          const method = parts.shift();
          call(Server.status, parts.join(' '), method);
          if (request.socket === undefined) return;
          request.state = 2;
        } else {
          const at = line.indexOf(':');
          const name = line.slice(0, at).trim().toLowerCase();
          const value = line.slice(at + 1).trim();
          if (name === 'content-length') request.total = parseInt(value) || 0;
          call(Server.header, name, value);
        }
      }
      if (request.state === 5) {
        const count = Math.min(Number(socket.read()), request.total);
        request.body += socket.read(String, count) as string;
        request.total -= count;
        if (request.total > 0) return;
        request.state = 7;
        call(
          Server.requestComplete,
          request.want === String || request.want === ArrayBuffer ? request.body : undefined,
        );
      }
    }
    if (request.state === 7) {
      const response = call(Server.prepareResponse) as Connection['response'];
      const body = response?.body;
      const count = typeof body === 'string' ? body.length : body instanceof ArrayBuffer ? body.byteLength : 0;
      let head = `HTTP/1.1 ${response?.status ?? 200} OK\r\nconnection: close\r\n`;
      for (let i = 0; i + 1 < (response?.headers?.length ?? 0); i += 2)
        head += `${response?.headers?.[i]}: ${response?.headers?.[i + 1]}\r\n`;
      socket.write(`${head}content-length: ${count}\r\n\r\n`);
      if (count > 0) socket.write(body);
      request.state = 10;
      return;
    }
    if (request.state === 10 && message === 3) {
      call(Server.responseComplete);
      end(request);
      return;
    }
  } catch {
    message = -1;
  }
  if (message === -1 || message === -2) {
    try {
      call(request.state === 10 ? Server.responseComplete : Server.error);
    } finally {
      end(request);
    }
  }
}
