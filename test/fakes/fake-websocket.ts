/**
 * A fake WebSocketFactory for tests: every connect yields a FakeSocket that
 * records what the client sent, and lets the test play the server (open,
 * messages, close). Portable: no Node, no timers.
 */
import type { WebSocketConnection, WebSocketFactory, WebSocketHandlers } from '../../src/ports.js';

const RS = '\u001e';

export class FakeSocket implements WebSocketConnection {
  /** Raw text frames the client sent. */
  readonly sent: string[] = [];
  /** True once the client called `close()`. */
  closedByClient = false;
  private peerClosed = false;

  constructor(
    readonly url: string,
    readonly headers: Readonly<Record<string, string>>,
    private readonly handlers: WebSocketHandlers,
  ) {}

  send(data: string): void {
    if (this.closedByClient || this.peerClosed) throw new Error('fake socket: send after close');
    this.sent.push(data);
  }

  close(): void {
    this.closedByClient = true;
  }

  /** Server side: the upgrade completed. */
  open(): void {
    this.handlers.onOpen();
  }

  /** Server side: one text message, delivered as is. */
  receive(text: string): void {
    this.handlers.onMessage(text);
  }

  /** Server side: one message carrying `records` (objects are JSON-encoded), each ended by 0x1E. */
  receiveRecords(...records: unknown[]): void {
    this.receive(records.map((r) => (typeof r === 'string' ? r : JSON.stringify(r)) + RS).join(''));
  }

  /** Server side: opens and accepts the handshake. */
  accept(): void {
    this.open();
    this.receive('{}' + RS);
  }

  /** Server side (or network): the socket is gone. */
  drop(reason = 'connection reset'): void {
    this.peerClosed = true;
    this.handlers.onClose(reason);
  }

  /** Every record the client sent, parsed, in order (the handshake first). */
  records(): unknown[] {
    const out: unknown[] = [];
    for (const frame of this.sent) {
      for (const part of frame.split(RS)) if (part !== '') out.push(JSON.parse(part));
    }
    return out;
  }

  /** Records the client sent after the handshake, parsed. */
  messages(): Record<string, unknown>[] {
    return this.records().slice(1) as Record<string, unknown>[];
  }
}

export class FakeWebSocketFactory implements WebSocketFactory {
  readonly sockets: FakeSocket[] = [];
  /** When set, the next connect throws it (then it is cleared). */
  failNext: Error | undefined;

  connect(url: string, headers: Readonly<Record<string, string>>, handlers: WebSocketHandlers): WebSocketConnection {
    const failure = this.failNext;
    if (failure !== undefined) {
      this.failNext = undefined;
      throw failure;
    }
    const socket = new FakeSocket(url, headers, handlers);
    this.sockets.push(socket);
    return socket;
  }

  /** The most recent socket; throws when none was opened. */
  get last(): FakeSocket {
    const socket = this.sockets[this.sockets.length - 1];
    if (socket === undefined) throw new Error('fake websocket: no socket opened yet');
    return socket;
  }
}
