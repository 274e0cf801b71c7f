/**
 * One hub connection over a WebSocket (spec 4.8): the handshake, keep-alive
 * pings every `pingIntervalMs`, the client timeout after
 * `clientTimeoutMs` without receiving, invocations, Close, and the fault
 * switches applied to every outgoing record (docs/realtime.md, "The local hub").
 * One state union, changed only in `setState`.
 */
import type { WebSocket } from 'ws';
import { isServiceError } from '../errors.js';
import { HubMessageType as T } from '../wire.js';
import type { Principal } from '../auth.js';
import { FaultyOutput, type HubFaults } from './faults.js';
import { checkHandshake, close, completion, HubErrors, invocation, parseMessage, ping } from './protocol.js';
import { encodeRecord, RecordReader } from './records.js';

export type ConnectionState = 'handshake' | 'open' | 'closed';

export interface ConnectionOptions {
  pingIntervalMs: number;
  clientTimeoutMs: number;
  maxMessageBytes: number;
  /** WebSocket pings answered per second; one more within the second closes the connection with 1008. */
  maxPingsPerSecond: number;
  faults: HubFaults;
  log: (line: string) => void;
  /** Unix ms (the service's clock), for the ping rate. */
  now: () => number;
  /** Runs a client invocation; returns the result or throws (Completion error text). */
  invoke(connection: HubConnection, target: string, args: unknown[]): unknown;
  onClosed(connection: HubConnection): void;
}

export class HubConnection {
  private state: ConnectionState = 'handshake';
  private readonly decoder: RecordReader;
  private readonly pingTimer: NodeJS.Timeout;
  private readonly timeoutTimer: NodeJS.Timeout;
  private readonly output: FaultyOutput;
  /** The ping rate's window: its start (Unix ms) and the pings in it. */
  private pingWindow = { startMs: 0, count: 0 };

  constructor(
    private readonly ws: WebSocket,
    readonly principal: Principal,
    /** A name for logs (never the connection token). */
    readonly id: string,
    private readonly o: ConnectionOptions,
  ) {
    this.decoder = new RecordReader(o.maxMessageBytes);
    this.output = new FaultyOutput(ws, o.faults);
    this.pingTimer = setInterval(() => this.keepAlive(), o.pingIntervalMs);
    this.timeoutTimer = setTimeout(() => this.timedOut(), o.clientTimeoutMs);
    ws.on('message', (data, isBinary) =>
      this.receive(isBinary ? Buffer.from(data as Buffer).toString('utf8') : String(data)),
    );
    ws.on('ping', (data) => this.onPing(data));
    ws.on('close', () => this.setState('closed'));
    ws.on('error', (e) => o.log(`hub ${id}: socket error ${e.message}`));
  }

  get current(): ConnectionState {
    return this.state;
  }

  private setState(next: ConnectionState): void {
    if (this.state === 'closed') return;
    this.state = next;
    if (next === 'closed') {
      clearInterval(this.pingTimer);
      clearTimeout(this.timeoutTimer);
      this.o.onClosed(this);
    }
  }

  /** Sends a server-to-client Invocation (Notify), if the connection is open. */
  invokeClient(target: string, args: unknown[]): void {
    if (this.state === 'open') this.send(encodeRecord(invocation(target, args)));
  }

  /** Sends Close (type 7), then closes the socket. */
  close(allowReconnect: boolean, error?: string): void {
    if (this.state === 'closed') return;
    this.send(encodeRecord(close(allowReconnect, error)));
    this.flush();
    this.setState('closed');
    this.ws.close(1000);
  }

  /** Terminates the socket abruptly: no Close message, no close frame. */
  drop(): void {
    this.setState('closed');
    this.ws.terminate();
  }

  /**
   * The ping rule (docs/service.md#limits): up to `maxPingsPerSecond` WebSocket
   * pings in a one-second window are answered with a pong; one more closes the
   * connection with 1008 (policy violation), logged, so a ping flood costs one
   * close instead of a stream of pongs.
   */
  private onPing(data: Buffer): void {
    if (this.state === 'closed') return;
    this.timeoutTimer.refresh();
    const nowMs = this.o.now();
    if (nowMs - this.pingWindow.startMs >= 1000) this.pingWindow = { startMs: nowMs, count: 0 };
    if (++this.pingWindow.count <= this.o.maxPingsPerSecond) {
      this.ws.pong(data);
      return;
    }
    this.o.log(`hub ${this.id}: over ${this.o.maxPingsPerSecond} WebSocket pings in a second; closing (1008)`);
    this.setState('closed');
    this.ws.close(1008, `over ${this.o.maxPingsPerSecond} pings per second`);
  }

  private keepAlive(): void {
    if (this.state === 'open') this.send(encodeRecord(ping));
  }

  private timedOut(): void {
    this.o.log(`hub ${this.id}: nothing received for ${this.o.clientTimeoutMs} ms; closing`);
    this.close(true);
  }

  private receive(text: string): void {
    if (this.state === 'closed') return;
    this.timeoutTimer.refresh();
    try {
      this.decoder.push(text, (record) => this.onRecord(record));
    } catch (e) {
      if (isServiceError(e, 'too-large')) this.close(false, HubErrors.tooLarge(this.o.maxMessageBytes));
      else {
        this.o.log(`hub ${this.id}: bad message: ${(e as Error).message}`);
        this.close(false, HubErrors.closedWithError);
      }
    }
  }

  private onRecord(record: string): void {
    if (this.state === 'closed') return;
    if (this.state === 'handshake') {
      const error = checkHandshake(record);
      if (error !== null) {
        this.send(encodeRecord({ error }));
        this.flush();
        this.setState('closed');
        this.ws.close(1000);
        return;
      }
      this.setState('open');
      this.send(encodeRecord({}));
      // With batching on, the handshake answer travels together with the next record.
      if (this.o.faults.batchRecords) this.send(encodeRecord(ping));
      return;
    }
    const msg = parseMessage(record);
    if (msg.type === T.close) {
      this.setState('closed');
      this.ws.close(1000);
    } else if (msg.type === T.invocation) {
      let outcome: { result: unknown } | { error: string };
      try {
        outcome = { result: this.o.invoke(this, msg.target, msg.arguments) ?? null };
      } catch (e) {
        outcome = { error: (e as Error).message };
      }
      if (msg.invocationId !== undefined) this.send(encodeRecord(completion(msg.invocationId, outcome)));
    }
  }

  private send(record: string): void {
    this.output.send(record);
  }

  private flush(): void {
    this.output.flush();
  }
}
