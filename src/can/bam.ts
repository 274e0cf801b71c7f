/**
 * J1939 multi-packet broadcasts (SAE J1939-21, section 5.10: transport
 * protocol, Broadcast Announce Message). A TP.CM frame with control byte 32
 * announces the size (9..1785 bytes), the packet count and the PGN; TP.DT
 * frames carry sequence numbers 1..n and 7 bytes each. The reassembler keeps
 * one session per source address, at most `maxSessions` at once (a new BAM
 * beyond the bound is refused and counted), and drops a session whose next
 * packet is out of sequence or later than `packetTimeoutMs` (T1, 750 ms).
 * Connection-mode transfers (RTS/CTS) address one node and need answers; a
 * listener without an address ignores them.
 */
import type { Clock } from '../ports.js';

/** TP.CM control byte of a BAM. */
export const BAM_CONTROL = 32;
/** TP.CM control byte of a connection abort. */
export const ABORT_CONTROL = 255;
/** Largest transport-protocol message. */
export const MAX_TP_BYTES = 1785;

interface Session {
  sourceAddress: number;
  pgn: number;
  size: number;
  packets: number;
  nextSequence: number;
  lastMs: number;
  data: Uint8Array;
}

export interface BamCounters {
  completed: number;
  refused: number;
  dropped: number;
}

export type BamHandler = (pgn: number, sourceAddress: number, data: Uint8Array) => void;

export class BamReassembler {
  readonly counters: BamCounters = { completed: 0, refused: 0, dropped: 0 };
  private readonly sessions = new Map<number, Session>();

  constructor(
    private readonly clock: Clock,
    private readonly onMessage: BamHandler,
    private readonly maxSessions = 8,
    private readonly packetTimeoutMs = 750,
  ) {}

  /** A TP.CM frame from `sourceAddress` (destination global). */
  connectionManagement(sourceAddress: number, data: Uint8Array): void {
    const control = data[0];
    if (control === ABORT_CONTROL) {
      if (this.sessions.delete(sourceAddress)) this.counters.dropped++;
      return;
    }
    if (control !== BAM_CONTROL || data.length < 8) return;
    const size = (data[1] ?? 0) | ((data[2] ?? 0) << 8);
    const packets = data[3] ?? 0;
    const pgn = (data[5] ?? 0) | ((data[6] ?? 0) << 8) | ((data[7] ?? 0) << 16);
    const now = this.clock.monotonicMs();
    this.expire(now);
    if (size < 9 || size > MAX_TP_BYTES || packets !== Math.ceil(size / 7)) {
      this.counters.refused++;
      return;
    }
    const old = this.sessions.get(sourceAddress);
    if (old !== undefined)
      this.counters.dropped++; // a new BAM ends the previous one
    else if (this.sessions.size >= this.maxSessions) {
      this.counters.refused++;
      return;
    }
    const data2 = old !== undefined && old.data.length >= size ? old.data : new Uint8Array(size);
    this.sessions.set(sourceAddress, { sourceAddress, pgn, size, packets, nextSequence: 1, lastMs: now, data: data2 });
  }

  /** A TP.DT frame from `sourceAddress`. */
  dataTransfer(sourceAddress: number, data: Uint8Array): void {
    const s = this.sessions.get(sourceAddress);
    if (s === undefined) return;
    const now = this.clock.monotonicMs();
    const sequence = data[0] ?? 0;
    if (now - s.lastMs > this.packetTimeoutMs || sequence !== s.nextSequence || data.length < 2) {
      this.sessions.delete(sourceAddress);
      this.counters.dropped++;
      return;
    }
    const at = (sequence - 1) * 7;
    for (let i = 1; i < data.length && at + i - 1 < s.size; i++) s.data[at + i - 1] = data[i] ?? 0;
    s.lastMs = now;
    s.nextSequence++;
    if (sequence < s.packets) return;
    this.sessions.delete(sourceAddress);
    this.counters.completed++;
    this.onMessage(s.pgn, sourceAddress, s.data.subarray(0, s.size));
  }

  /** Sessions in progress. */
  get active(): number {
    return this.sessions.size;
  }

  private expire(now: number): void {
    for (const [sa, s] of this.sessions) {
      if (now - s.lastMs > this.packetTimeoutMs) {
        this.sessions.delete(sa);
        this.counters.dropped++;
      }
    }
  }
}
