/**
 * A fake of the Moddable SDK's `http` module (the client `Request`), written
 * from its documentation and observed behaviour, over the socket class it is
 * given (`Socket` option; default the fake `socket`).
 *
 * What the firmware relies on, and what makes a device abort:
 * - Options: host/address, port (80), path, method, headers as a flat
 *   [name, value, ...] array, `body` (a string or buffer, or `true` to stream
 *   it through the `requestFragment` callback), `response` (String or
 *   ArrayBuffer: the body is collected and passed with `responseComplete`).
 * - The request is written on `connected`, inside the socket's callback, with
 *   `Connection: close` and a Host header unless one is given; a write that
 *   throws there is uncaught (on Linux a refused connection does exactly that).
 * - Callbacks: 0 requestFragment (bytes free; return a piece or undefined),
 *   1 status, 2 header (lower-case name, value), 3 headersComplete,
 *   4 responseFragment, 5 responseComplete, -2 error. After 5 or -2 the
 *   request closes its socket (a second close of a closed socket throws on
 *   Linux). A status line without three parts throws "unexpected status format".
 * - The body ends at Content-Length, at the last chunk, or at disconnect
 *   when neither is given; a disconnect earlier is an error.
 */
import { Server } from './fake-http-server.js';
import { Socket } from './fake-socket.js';

export { Server };

type RequestCallback = (message: number, value?: unknown, extra?: unknown) => unknown;
interface SocketLike {
  callback: unknown;
  read(type?: unknown, until?: unknown): unknown;
  write(...items: unknown[]): unknown;
  close(): void;
}

export class Request {
  static readonly requestFragment = 0;
  static readonly status = 1;
  static readonly header = 2;
  static readonly headersComplete = 3;
  static readonly responseFragment = 4;
  static readonly responseComplete = 5;
  static readonly error = -2;

  declare callback: RequestCallback | undefined;
  private socket: SocketLike | undefined;
  private state = 0;
  private parts: string[] = [];
  private readonly body: unknown;
  private readonly response: unknown;
  private line = '';
  private total: number | undefined;
  private chunked = false;
  private chunkLeft = 0;
  private chunkTail = 0;
  private buffers: unknown[] = [];

  constructor(options: Record<string, unknown>) {
    const o: Record<string, unknown> = { port: 80, method: 'GET', path: '/', Socket, ...options };
    this.body = o.body;
    this.response = o.response;
    const host = (o.host ?? o.address) as string;
    const lines = [`${String(o.method)} ${String(o.path)} HTTP/1.1\r\n`, 'Connection: close\r\n'];
    const headers = (o.headers ?? []) as unknown[];
    let length = false;
    let hostGiven = false;
    for (let i = 0; i < headers.length; i += 2) {
      const name = String(headers[i]);
      lines.push(`${name}: ${String(headers[i + 1])}\r\n`);
      if (name.toLowerCase() === 'content-length') length = true;
      if (name.toLowerCase() === 'host') hostGiven = true;
    }
    if (this.body !== undefined && this.body !== true && !length) {
      const size = this.body instanceof ArrayBuffer ? this.body.byteLength : String(this.body).length;
      lines.push(`content-length: ${size}\r\n`);
    }
    if (!hostGiven) lines.push(`Host: ${host}\r\n`);
    lines.push('\r\n');
    this.parts = lines;
    const SocketClass = o.Socket as unknown as new (d: Record<string, unknown>) => SocketLike;
    this.socket = new SocketClass(o);
    this.socket.callback = (message: number, value?: number) => this.onSocket(message, value ?? 0);
  }

  close(): void {
    this.socket?.close();
    this.socket = undefined;
    this.callback = undefined;
    this.state = 11;
  }

  private onSocket(message: number, value: number): void {
    const socket = this.socket;
    if (socket === undefined) return;
    if (message === 1) {
      if (this.state !== 0) throw new Error('socket connected but http not in connecting state');
      this.state = 1;
      message = 3;
      value = socket.write() as number;
    }
    if (message === 3) this.send(socket, value);
    if (message === 2) this.receive(socket);
    if (message < 0) {
      const complete = this.state === 5 && (this.total === 0 || (this.total === undefined && !this.chunked));
      this.done(!complete);
    }
  }

  private send(socket: SocketLike, free: number): void {
    if (this.state === 1) {
      const out: string[] = [];
      while (free > 0 && this.parts.length > 0) {
        const part = this.parts[0] ?? '';
        if (part.length <= free) {
          out.push(part);
          this.parts.shift();
          free -= part.length;
        } else {
          out.push(part.slice(0, free));
          this.parts[0] = part.slice(free);
          free = 0;
        }
      }
      socket.write(...out);
      if (this.parts.length > 0) return;
      this.state = this.body === undefined ? 3 : 2;
    }
    if (this.state === 2) {
      if (this.body === true) {
        const piece = this.callback?.(Request.requestFragment, socket.write());
        if (piece !== undefined) {
          socket.write(piece);
          return;
        }
      } else socket.write(this.body);
      this.state = 3;
    }
  }

  private readLine(socket: SocketLike): string | undefined {
    const text = socket.read(String, '\n') as string | undefined;
    if (text === undefined || text === '') return undefined;
    this.line += text;
    if (!this.line.endsWith('\n')) return undefined;
    const line = this.line;
    this.line = '';
    return line;
  }

  private receive(socket: SocketLike): void {
    if (this.state === 3) {
      const line = this.readLine(socket);
      if (line === undefined) return;
      const status = line.split(' ');
      if (status.length < 3) throw new Error('unexpected status format');
      this.state = 4;
      this.callback?.(Request.status, parseInt(status[1] ?? '', 10));
      if (this.state >= 11) return;
    }
    while (this.state === 4) {
      const line = this.readLine(socket);
      if (line === undefined) return;
      if (line === '\r\n') {
        this.callback?.(Request.headersComplete);
        if (this.state >= 11) return;
        this.state = 5;
        if (this.total === 0) return this.done(false);
        break;
      }
      const at = line.indexOf(':');
      const name = line.slice(0, at).trim().toLowerCase();
      const value = line.slice(at + 1).trim();
      this.callback?.(Request.header, name, value);
      if (this.state >= 11) return;
      if (name === 'content-length') this.total = parseInt(value, 10);
      else if (name === 'transfer-encoding' && value.toLowerCase() === 'chunked') this.chunked = true;
    }
    if (this.state === 5) this.receiveBody(socket);
  }

  private take(socket: SocketLike, count: number): void {
    if (this.response !== undefined) this.buffers.push(socket.read(this.response, count));
    else {
      this.callback?.(Request.responseFragment, count);
      if (this.state < 11) socket.read(null, count);
    }
  }

  private receiveBody(socket: SocketLike): void {
    for (
      let available = socket.read() as number;
      available > 0 && this.state === 5;
      available = socket.read() as number
    ) {
      if (!this.chunked) {
        const count = this.total === undefined ? available : Math.min(this.total, available);
        this.take(socket, count);
        if (this.total !== undefined) {
          this.total -= count;
          if (this.total === 0) return this.done(false);
        }
      } else if (this.chunkTail > 0) {
        const skip = Math.min(this.chunkTail, available);
        socket.read(null, skip);
        this.chunkTail -= skip;
      } else if (this.chunkLeft === 0) {
        const line = this.readLine(socket);
        if (line === undefined) return;
        this.chunkLeft = parseInt(line.trim(), 16);
        if (this.chunkLeft === 0) return this.done(false);
      } else {
        const count = Math.min(this.chunkLeft, available);
        this.take(socket, count);
        this.chunkLeft -= count;
        if (this.chunkLeft === 0) this.chunkTail = 2;
      }
    }
  }

  private done(error: boolean): void {
    if (this.state === 6 || this.state >= 11) return;
    this.state = 6;
    let data: unknown;
    if (!error && this.response === String) data = this.buffers.join('');
    else if (!error && this.response === ArrayBuffer) {
      const size = this.buffers.reduce((n: number, b) => n + (b as ArrayBuffer).byteLength, 0);
      const all = new Uint8Array(size);
      let at = 0;
      for (const b of this.buffers) {
        all.set(new Uint8Array(b as ArrayBuffer), at);
        at += (b as ArrayBuffer).byteLength;
      }
      data = all.buffer;
    }
    this.buffers = [];
    try {
      this.callback?.(error ? Request.error : Request.responseComplete, data);
    } finally {
      this.close();
    }
  }
}

export default { Request, Server };
