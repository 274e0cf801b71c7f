/**
 * The receive side of one CAN bus: frames in, the latest payload of each
 * subscription out. A subscription matches a frame by its identifier
 * (`canId`) or, for J1939, by PGN (and source address when given); J1939
 * multi-packet broadcasts are reassembled first (src/can/bam.ts). Each
 * subscription keeps one buffer that is overwritten in place: the latest
 * payload and its arrival time, nothing queued.
 */
import type { Clock, CanFrame } from '../ports.js';
import { BamReassembler, MAX_TP_BYTES } from './bam.js';
import { decodeJ1939Id, Pgn, type J1939Id } from './j1939-id.js';

export type CanMatch = { kind: 'id'; id: number } | { kind: 'pgn'; pgn: number; sourceAddress?: number };

/** The latest payload a subscription saw. */
export interface CanSubscription {
  readonly match: CanMatch;
  /** Payload view; valid until the next matching frame. */
  payload: Uint8Array;
  /** Monotonic arrival time of the payload; undefined until the first frame. */
  receivedMs: number | undefined;
}

interface Sub extends CanSubscription {
  buffer: Uint8Array;
}

export class CanListener {
  readonly counters = { frames: 0, matched: 0 };
  readonly bam: BamReassembler;
  private readonly byId = new Map<number, Sub[]>();
  private readonly byPgn = new Map<number, Sub[]>();
  private readonly id: J1939Id = { priority: 0, pgn: 0, sourceAddress: 0, destinationAddress: 0, pdu1: false };

  constructor(private readonly clock: Clock) {
    this.bam = new BamReassembler(clock, (pgn, sa, data) => this.deliverPgn(pgn, sa, data));
  }

  subscribe(match: CanMatch): CanSubscription {
    const sub: Sub = { match, payload: new Uint8Array(0), receivedMs: undefined, buffer: new Uint8Array(8) };
    const [table, key] = match.kind === 'id' ? [this.byId, match.id] : [this.byPgn, match.pgn];
    const list = table.get(key) ?? [];
    list.push(sub);
    table.set(key, list);
    return sub;
  }

  /** Feed of frames from the Can port. */
  onFrame(frame: CanFrame): void {
    this.counters.frames++;
    const subs = this.byId.get(frame.id);
    if (subs !== undefined) for (const s of subs) this.store(s, frame.data);
    if (!frame.extended) return;
    const id = decodeJ1939Id(frame.id, this.id);
    if (id.pgn === Pgn.tpCm) this.bam.connectionManagement(id.sourceAddress, frame.data);
    else if (id.pgn === Pgn.tpDt) this.bam.dataTransfer(id.sourceAddress, frame.data);
    else this.deliverPgn(id.pgn, id.sourceAddress, frame.data);
  }

  private deliverPgn(pgn: number, sourceAddress: number, data: Uint8Array): void {
    const subs = this.byPgn.get(pgn);
    if (subs === undefined) return;
    for (const s of subs) {
      if (s.match.kind === 'pgn' && s.match.sourceAddress !== undefined && s.match.sourceAddress !== sourceAddress) {
        continue;
      }
      this.store(s, data);
    }
  }

  private store(s: Sub, data: Uint8Array): void {
    const length = Math.min(data.length, MAX_TP_BYTES);
    if (s.buffer.length < length) s.buffer = new Uint8Array(length);
    s.buffer.set(data.subarray(0, length));
    if (s.payload.buffer !== s.buffer.buffer || s.payload.length !== length) s.payload = s.buffer.subarray(0, length);
    s.receivedMs = this.clock.monotonicMs();
    this.counters.matched++;
  }
}
