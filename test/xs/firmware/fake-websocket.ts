/**
 * A fake of the Moddable SDK's `websocket` module (the `Client`), written from
 * its documentation and observed behaviour, over the socket class it is given
 * (`Socket` option; default the fake `socket`).
 *
 * - Options: host/address, port (80), path, headers (flat array), protocol.
 * - Callbacks: 1 connect (socket connected), 2 handshake (upgrade accepted),
 *   3 receive (a string for a text frame, an ArrayBuffer for binary), 4
 *   disconnect. The upgrade request is written inside the socket's
 *   `connected` callback; a throw there is uncaught (a refused connection on
 *   Linux). A status other than 101, or missing upgrade headers, is a
 *   disconnect. A close frame is a disconnect, then the client closes.
 * - `write(string | ArrayBuffer)`: one masked frame (the SDK's mask is zero);
 *   64 KiB or more throws "message too long"; the socket's own throws
 *   ("write on closed socket", "write failed") reach the caller.
 * Unlike the SDK, which reads a frame assuming all of it has arrived, this fake
 * waits for whole frames, so a split TCP segment does not corrupt the test.
 */
import { decoder, encoder } from './bridge.js';
import { Socket } from './fake-socket.js';

type ClientCallback = (message: number, value?: unknown) => unknown;
interface SocketLike {
  callback: unknown;
  read(type?: unknown, until?: unknown): unknown;
  write(...items: unknown[]): unknown;
  close(): void;
}

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

function randomKey(): string {
  let key = '';
  for (let i = 0; i < 21; i++) key += BASE64[Math.floor(Math.random() * 64)];
  return `${key}A==`;
}

export class Client {
  static readonly connect = 1;
  static readonly handshake = 2;
  static readonly receive = 3;
  static readonly disconnect = 4;

  declare callback: ClientCallback | undefined;
  private socket: SocketLike | undefined;
  private state: number = 0;
  private flags = 0;
  private line = '';
  private frame = new Uint8Array(0);
  private readonly path: string;
  private readonly host: string;
  private readonly headers: unknown[];
  private readonly protocol: unknown;

  constructor(options: Record<string, unknown>) {
    this.path = String(options.path ?? '/');
    this.host = String(options.host ?? options.address);
    this.headers = (options.headers ?? []) as unknown[];
    this.protocol = options.protocol;
    const SocketClass = (options.Socket ?? Socket) as unknown as new (d: Record<string, unknown>) => SocketLike;
    this.socket = new SocketClass({ port: 80, ...options });
    this.socket.callback = (message: number) => this.onSocket(message);
  }

  write(message: string | ArrayBuffer): void {
    const socket = this.socket;
    if (socket === undefined) throw new Error('write on closed socket');
    const text = typeof message === 'string';
    const data = text ? encoder.encode(message) : new Uint8Array(message);
    const type = text ? 0x81 : 0x82;
    if (data.length < 126) socket.write(type, data.length | 0x80, 0, 0, 0, 0, data);
    else if (data.length < 65536)
      socket.write(type, 126 | 0x80, data.length >> 8, data.length & 0xff, 0, 0, 0, 0, data);
    else throw new Error('message too long');
  }

  close(): void {
    this.socket?.close();
    this.socket = undefined;
    this.state = 4;
  }

  /** Whether a callback closed the client (state changes behind the compiler's back). */
  private closed(): boolean {
    return this.state === 4;
  }

  private onSocket(message: number): void {
    const socket = this.socket;
    if (socket === undefined) return;
    if (message === 1) {
      if (this.state !== 0) throw new Error('socket connected but ws not in connecting state');
      this.callback?.(Client.connect);
      if (this.closed()) return;
      const request = [
        `GET ${this.path} HTTP/1.1\r\n`,
        `Host: ${this.host}\r\n`,
        'Upgrade: websocket\r\n',
        'Connection: keep-alive, Upgrade\r\n',
        'Sec-WebSocket-Version: 13\r\n',
        `Sec-WebSocket-Key: ${randomKey()}\r\n`,
      ];
      if (this.protocol !== undefined) request.push(`Sec-WebSocket-Protocol: ${String(this.protocol)}\r\n`);
      if (this.headers.length % 2 !== 0) throw new Error('invalid header array: need a value for every header');
      for (let i = 0; i < this.headers.length; i += 2) {
        request.push(`${String(this.headers[i])}: ${String(this.headers[i + 1])}\r\n`);
      }
      request.push('\r\n');
      socket.write(...request);
      this.state = 1;
    } else if (message === 2) this.receive(socket);
    else if (message < 0 && this.state !== 4) {
      this.callback?.(Client.disconnect);
      this.close();
    }
  }

  private receive(socket: SocketLike): void {
    while (this.state === 1 || this.state === 2) {
      const part = socket.read(String, '\n') as string | undefined;
      if (part === undefined || part === '') return;
      this.line += part;
      if (!this.line.endsWith('\n')) return;
      const line = this.line;
      this.line = '';
      if (this.state === 1) {
        if (!line.startsWith('HTTP/1.1 101')) {
          trace('web socket upgrade failed\n');
          this.callback?.(Client.disconnect);
          this.close();
          return;
        }
        this.state = 2;
        continue;
      }
      if (line === '\r\n') {
        if (this.flags !== 7) {
          this.callback?.(Client.disconnect);
          this.close();
          return;
        }
        this.callback?.(Client.handshake);
        if (this.closed()) return;
        this.state = 3;
        break;
      }
      const at = line.indexOf(':');
      const name = line.slice(0, at).trim().toLowerCase();
      const value = line
        .slice(at + 1)
        .trim()
        .toLowerCase();
      if (name === 'connection' && value.includes('upgrade')) this.flags |= 1;
      else if (name === 'sec-websocket-accept') this.flags |= 2;
      else if (name === 'upgrade' && value === 'websocket') this.flags |= 4;
    }
    if (this.state === 3) this.frames(socket);
  }

  private frames(socket: SocketLike): void {
    const available = socket.read() as number;
    if (available > 0) {
      const more = new Uint8Array(socket.read(ArrayBuffer, available) as ArrayBuffer);
      const joined = new Uint8Array(this.frame.length + more.length);
      joined.set(this.frame);
      joined.set(more, this.frame.length);
      this.frame = joined;
    }
    while (this.state === 3 && this.frame.length >= 2) {
      const f = this.frame;
      const opcode = (f[0] ?? 0) & 0x0f;
      const masked = ((f[1] ?? 0) & 0x80) !== 0;
      let length = (f[1] ?? 0) & 0x7f;
      let at = 2;
      if (length === 126) {
        if (f.length < 4) return;
        length = ((f[2] ?? 0) << 8) | (f[3] ?? 0);
        at = 4;
      } else if (length === 127) throw new Error('64-bit frame length unsupported');
      const maskAt = at;
      if (masked) at += 4;
      if (f.length < at + length) return;
      const payload = f.slice(at, at + length);
      if (masked) for (let i = 0; i < payload.length; i++) payload[i] = (payload[i] ?? 0) ^ (f[maskAt + (i % 4)] ?? 0);
      this.frame = f.slice(at + length);
      if (opcode === 1) this.callback?.(Client.receive, decoder.decode(payload));
      else if (opcode === 2) this.callback?.(Client.receive, payload.buffer);
      else if (opcode === 8) {
        this.state = 4;
        this.callback?.(Client.disconnect);
        this.close();
      } else if (opcode === 9) socket.write(0x8a, payload.length, payload);
    }
  }
}

export default { Client };
