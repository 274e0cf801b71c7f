/**
 * Fault switches of the local hub, for tests of hub clients (docs/realtime.md, "The
 * local hub"), and the outgoing path of a connection that applies them. The
 * switches are mutable and read at the moment of each send.
 */
import type { WebSocket } from 'ws';
export interface HubFaults {
  /** Send each outgoing WebSocket message as several fragmented frames. */
  fragmentFrames: boolean;
  /** Coalesce outgoing records into one WebSocket message where possible (e.g. handshake answer + next records). */
  batchRecords: boolean;
  /** Split each outgoing record across two WebSocket messages. */
  splitRecords: boolean;
  /** Send nothing at all (no pings, no answers): the client must time out. */
  silent: boolean;
  /** Negotiate and WebSocket upgrade answer this status. */
  refuseWith: 401 | 403 | null;
}

export function noFaults(): HubFaults {
  return { fragmentFrames: false, batchRecords: false, splitRecords: false, silent: false, refuseWith: null };
}

/** Records coalesced into one message at most, when batching. */
export const maxBatchRecords = 256;

/** Sends a connection's records over its WebSocket through the fault switches. */
export class FaultyOutput {
  private batch: string[] = [];

  constructor(
    private readonly ws: WebSocket,
    private readonly faults: HubFaults,
  ) {}

  /** Sends one encoded record (or queues it when batching); nothing at all when silent. */
  send(record: string): void {
    if (this.faults.silent || this.ws.readyState !== this.ws.OPEN) return;
    if (this.faults.batchRecords) {
      if (this.batch.length === 0) setImmediate(() => this.flush());
      this.batch.push(record);
      if (this.batch.length >= maxBatchRecords) this.flush(); // bounded: a full batch goes out at once
      return;
    }
    this.message(record);
  }

  /** Sends the queued records now, as one WebSocket message. */
  flush(): void {
    if (this.batch.length === 0) return;
    const text = this.batch.join('');
    this.batch = [];
    if (this.ws.readyState === this.ws.OPEN) this.message(text);
  }

  private message(text: string): void {
    if (this.faults.splitRecords && text.length > 1) {
      const at = splitPoint(text, text.length >> 1);
      this.frames(text.slice(0, at));
      this.frames(text.slice(at));
    } else this.frames(text);
  }

  /** One WebSocket message, as up to three fragments (continuation frames) when fragmenting. */
  private frames(text: string): void {
    if (!this.faults.fragmentFrames || text.length < 2) {
      this.ws.send(text);
      return;
    }
    const pieces = Math.min(3, text.length);
    let start = 0;
    for (let i = 1; i <= pieces; i++) {
      const end = i === pieces ? text.length : splitPoint(text, Math.round((text.length * i) / pieces));
      this.ws.send(text.slice(start, end), { fin: i === pieces });
      start = end;
    }
  }
}

/** An index near `at` that does not cut a UTF-16 surrogate pair. */
function splitPoint(text: string, at: number): number {
  const c = text.charCodeAt(at - 1);
  return c >= 0xd800 && c <= 0xdbff ? at + 1 : at;
}
