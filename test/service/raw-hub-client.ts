/**
 * A bare hub client for the hub tests: negotiate, WebSocket with the
 * Authorization header, and every received WebSocket message and record kept
 * for assertions. The raw TCP bytes are parsed into frame headers so that
 * fragmentation is visible. Waits are bounded by `timeoutMs`.
 */
import { once } from 'node:events';
import WebSocket from 'ws';
import { RecordDecoder } from '../../src/signalr/record-codec.js';

export interface Frame {
  fin: boolean;
  opcode: number;
}

export class RawHubClient {
  readonly messages: string[] = [];
  readonly records: Record<string, unknown>[] = [];
  readonly frames: Frame[] = [];
  closeCode: number | undefined;
  private readonly decoder = new RecordDecoder(1 << 20);
  private waiters: (() => void)[] = [];
  private raw = Buffer.alloc(0);

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data) => {
      const text = String(data);
      this.messages.push(text);
      this.decoder.push(text, (r) => this.records.push(JSON.parse(r) as Record<string, unknown>));
      this.wake();
    });
    ws.on('close', (code) => {
      this.closeCode = code;
      this.wake();
    });
    ws.on('error', () => this.wake());
    // Server frames are unmasked: byte 0 carries FIN and the opcode, then the length.
    ws.once('upgrade', (res) => {
      res.socket.prependListener('data', (chunk: Buffer) => this.tapFrames(chunk));
    });
  }

  private tapFrames(chunk: Buffer): void {
    this.raw = Buffer.concat([this.raw, chunk]);
    for (;;) {
      if (this.raw.length < 2) return;
      const b0 = this.raw[0] as number;
      let len = (this.raw[1] as number) & 0x7f;
      let head = 2;
      if (len === 126) {
        if (this.raw.length < 4) return;
        len = this.raw.readUInt16BE(2);
        head = 4;
      } else if (len === 127) {
        if (this.raw.length < 10) return;
        len = Number(this.raw.readBigUInt64BE(2));
        head = 10;
      }
      if (this.raw.length < head + len) return;
      this.frames.push({ fin: (b0 & 0x80) !== 0, opcode: b0 & 0x0f });
      this.raw = this.raw.subarray(head + len);
    }
  }

  private wake(): void {
    const w = this.waiters;
    this.waiters = [];
    for (const f of w) f();
  }

  /** Negotiates and opens the WebSocket; rejects with the HTTP status on refusal. */
  static async connect(baseUrl: string, token: string, opts: { handshake?: boolean } = {}): Promise<RawHubClient> {
    const n = await fetch(`${baseUrl}/hubs/properties/negotiate?negotiateVersion=1`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}` },
    });
    if (n.status !== 200) throw new Error(`negotiate ${n.status}`);
    const body = (await n.json()) as { connectionToken: string };
    const client = await RawHubClient.open(baseUrl, token, body.connectionToken);
    if (opts.handshake !== false) {
      client.send('{"protocol":"json","version":1}\u001e');
      await client.waitFor(() => client.records.length >= 1);
    }
    return client;
  }

  /** Opens `{ws}/hubs/properties?id=` with a connection token; rejects with the upgrade status. */
  static async open(baseUrl: string, token: string | null, id: string): Promise<RawHubClient> {
    const headers: Record<string, string> = token === null ? {} : { Authorization: `Bearer ${token}` };
    const ws = new WebSocket(`${baseUrl.replace(/^http/, 'ws')}/hubs/properties?id=${encodeURIComponent(id)}`, {
      headers,
    });
    const client = new RawHubClient(ws);
    const status = await new Promise<number>((resolve) => {
      ws.once('open', () => resolve(101));
      ws.once('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
      ws.once('error', () => resolve(0));
    });
    if (status !== 101) {
      ws.terminate();
      throw new Error(`upgrade ${status}`);
    }
    return client;
  }

  send(text: string): void {
    this.ws.send(text);
  }

  sendRecord(message: unknown): void {
    this.ws.send(JSON.stringify(message) + '\u001e');
  }

  /** Resolves when `done()` holds; rejects after `timeoutMs`. */
  async waitFor(done: () => boolean, timeoutMs = 2000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!done()) {
      const left = deadline - Date.now();
      if (left <= 0) throw new Error('timed out waiting for the hub');
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /** Records of a type, after the handshake answer. */
  ofType(type: number): Record<string, unknown>[] {
    return this.records.filter((r) => r['type'] === type);
  }

  async close(): Promise<void> {
    if (this.ws.readyState === WebSocket.CLOSED) return;
    this.ws.close();
    await once(this.ws, 'close');
  }
}

/** Terminates (no Close handshake) and forgets every client in `clients`. */
export function terminateAll(clients: RawHubClient[]): void {
  for (const c of clients.splice(0)) c.ws.terminate();
}
