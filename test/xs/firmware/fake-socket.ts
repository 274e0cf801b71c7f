/**
 * A fake of the Moddable SDK's `socket` module (TCP client, and the `Listener`
 * with `new Socket({listener})` for an accepted connection), carried by a real
 * TCP connection that the Node host opens or accepts (bridge.ts).
 *
 * Behaviour, from the SDK's socket documentation and its Linux and lwIP
 * implementations:
 * - `callback(message, value)`: 1 connected, 2 readable (bytes available),
 *   3 writable (bytes that can be written), -1 disconnected, -2 error. The
 *   callback is looked up on the instance at each event, and nothing catches
 *   what it throws.
 * - `write()` with no argument returns the free space of the 1 KiB transmit
 *   buffer; `write(...items)` takes strings, numbers (one byte each) and
 *   buffers, and throws "can't write all data" when they do not fit, "write on
 *   closed socket" after close or disconnect, "write failed" on a broken
 *   connection. `read()` returns the bytes available; `read(String | ArrayBuffer
 *   | Number | null, until)` reads up to a count or through a one-character
 *   terminator (null skips). `close()` on a closed socket throws.
 * - A refused or reset connection depends on the platform (`flavor`): on `lin`
 *   (the desktop simulator) a refused connect is first reported as connected
 *   (the non-blocking connect selects writable) and the first write then throws
 *   "write failed"; on `esp32` (lwIP) it is an error callback (-2).
 */
import {
  adoptConnection,
  command,
  decoder,
  encoder,
  forgetConnection,
  fromLatin1,
  openConnection,
  toLatin1,
  listen,
  unlisten,
  type NetEvent,
} from './bridge.js';

export type Flavor = 'lin' | 'esp32';

/** The platform whose failure modes the fake socket follows (set by the run). */
export const platform: { flavor: Flavor } = { flavor: 'lin' };

const TX_BUFFER = 1024;

type Callback = (message: number, value?: unknown) => unknown;

export class Socket {
  static readonly connected = 1;
  static readonly readable = 2;
  static readonly writable = 3;
  static readonly error = -2;
  static readonly disconnected = -1;

  declare callback: Callback | undefined;
  private readonly id: number;
  private state: 'connecting' | 'open' | 'broken' | 'done' = 'connecting';
  private rx = new Uint8Array(0);
  private pending = 0;

  constructor(dictionary: Record<string, unknown>) {
    const listener = dictionary.listener;
    if (listener instanceof Listener) {
      // The SDK takes the listener's oldest pending connection; none pending throws.
      const id = listener.pending.shift();
      if (id === undefined) throw new Error('no pending connection');
      this.id = id;
      this.state = 'open';
      adoptConnection(id, (event) => this.event(event));
      return;
    }
    const host = (dictionary.host ?? dictionary.address) as string | undefined;
    if (typeof host !== 'string' || host === '') throw new Error('host required in dictionary');
    const port = Number(dictionary.port ?? 80);
    this.id = openConnection((event) => this.event(event));
    const tls = dictionary.tls as Record<string, unknown> | undefined;
    command({ t: 'connect', id: this.id, host, port, ...(tls === undefined ? {} : { tls }) });
  }

  private event(event: NetEvent): void {
    if (this.state === 'done') return;
    switch (event.e) {
      case 'connected':
        this.state = 'open';
        this.callback?.(Socket.connected);
        break;
      case 'data': {
        const bytes = fromLatin1(event.data ?? '');
        const joined = new Uint8Array(this.rx.length + bytes.length);
        joined.set(this.rx);
        joined.set(bytes, this.rx.length);
        this.rx = joined;
        if (this.rx.length > 0) this.callback?.(Socket.readable, this.rx.length);
        break;
      }
      case 'sent':
        this.pending = 0;
        if (this.state === 'open') this.callback?.(Socket.writable, TX_BUFFER);
        break;
      case 'end':
        this.finish(Socket.disconnected);
        break;
      case 'error':
        if (this.state === 'connecting' && platform.flavor === 'lin') {
          // The refused connect selects writable: reported as connected, then writes fail.
          this.state = 'broken';
          this.callback?.(Socket.connected);
          this.finish(Socket.error);
        } else {
          this.state = 'broken';
          this.finish(Socket.error);
        }
        break;
    }
  }

  private finish(message: number): void {
    if (this.state === 'done') return;
    this.state = 'done';
    forgetConnection(this.id);
    command({ t: 'close', id: this.id });
    this.callback?.(message);
  }

  read(type?: unknown, until?: unknown): unknown {
    if (this.state === 'done' && this.rx.length === 0) throw new Error('read on closed socket');
    if (type === undefined) return this.rx.length;
    let count = this.rx.length;
    if (typeof until === 'number') count = Math.min(count, until);
    else if (typeof until === 'string') {
      const at = this.rx.indexOf(until.charCodeAt(0));
      if (at >= 0) count = at + 1;
    }
    if (type === Number) count = Math.min(1, count);
    const out = this.rx.slice(0, count);
    this.rx = this.rx.slice(count);
    if (type === null) return undefined;
    if (type === Number) return out.length === 0 ? undefined : out[0];
    if (type === String) return decoder.decode(out);
    if (type === ArrayBuffer) return out.buffer;
    throw new Error('unsupported output type');
  }

  write(...items: unknown[]): unknown {
    const lwip = platform.flavor === 'esp32';
    if (lwip && this.state !== 'open' && this.state !== 'connecting') {
      if (items.length === 0) return 0;
      trace('write on closed socket\n');
      return undefined;
    }
    if (this.state === 'done') throw new Error('write on closed socket');
    const available = TX_BUFFER - this.pending;
    if (items.length === 0) return available;
    const parts: Uint8Array[] = [];
    let needed = 0;
    for (const item of items) {
      let bytes: Uint8Array;
      if (typeof item === 'string') bytes = encoder.encode(item);
      else if (typeof item === 'number') bytes = Uint8Array.of(item & 0xff);
      else if (item instanceof ArrayBuffer) bytes = new Uint8Array(item);
      else if (ArrayBuffer.isView(item)) bytes = new Uint8Array(item.buffer, item.byteOffset, item.byteLength);
      else throw new Error('unsupported type for write');
      parts.push(bytes);
      needed += bytes.length;
    }
    if (needed > available) throw new Error("can't write all data");
    if (this.state !== 'open') throw new Error('write failed');
    this.pending += needed;
    let data = '';
    for (const p of parts) data += toLatin1(p);
    command({ t: 'write', id: this.id, data });
    return undefined;
  }

  close(): void {
    if (this.state === 'done') {
      if (platform.flavor === 'esp32') return;
      throw new Error('close on closed socket');
    }
    this.state = 'done';
    forgetConnection(this.id);
    command({ t: 'close', id: this.id });
  }
}

/**
 * `Listener({port})`: `callback()` once per accepted connection, which the
 * callback takes with `new Socket({listener})`; one it does not take is closed
 * (the SDK's listener drops it). `close()` stops listening. The host listens
 * on a port of its own for `port` (port 0), which the test looks up.
 */
export class Listener {
  declare callback: (() => void) | undefined;
  readonly pending: number[] = [];
  readonly #port: number;

  constructor(dictionary: Record<string, unknown>) {
    const port = Number(dictionary.port);
    if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error('invalid port');
    this.#port = port;
    listen(port, (id) => {
      this.pending.push(id);
      this.callback?.();
      const left = this.pending.indexOf(id);
      if (left >= 0) {
        this.pending.splice(left, 1);
        command({ t: 'close', id });
      }
    });
  }

  close(): void {
    unlisten(this.#port);
  }
}

export default { Socket, Listener };
