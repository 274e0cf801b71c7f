/**
 * J1939 traffic for the demo fixture's CAN channels, on the Clock:
 * - EEC1 (PGN 61444, priority 3, every 100 ms): engine speed, SPN 190, bytes
 *   4-5, 0.125 rpm/bit, swinging between 800 and 1800 rpm over a minute;
 * - ET1 (PGN 65262, priority 6, every 1000 ms): coolant temperature, SPN 110,
 *   byte 1, 1 degC/bit offset -40, warming from 20 to 90 degC over 10 minutes.
 * Bytes the demo does not use are 0xFF (not available). `sendBam` sends any
 * payload of 9..1785 bytes as a multi-packet broadcast (TP.CM BAM + TP.DT,
 * 50 ms apart).
 */
import { encodeJ1939Id, Pgn } from '../../src/can/j1939-id.js';
import { BAM_CONTROL } from '../../src/can/bam.js';
import type { Clock } from '../../src/ports.js';
import type { SimulatedCanBus } from './bus.js';

export interface EngineState {
  rpm: number;
  coolantC: number;
}

/** The simulated engine at `ms` since the generator started. */
export function engineAt(ms: number): EngineState {
  const rpm = 1300 - 500 * Math.cos((2 * Math.PI * ms) / 60000);
  const coolantC = Math.min(90, 20 + (70 * ms) / 600000);
  return { rpm: Math.round(rpm * 8) / 8, coolantC: Math.round(coolantC) };
}

/** EEC1 payload for an engine speed. */
export function eec1Payload(rpm: number): Uint8Array {
  const raw = Math.round(rpm / 0.125);
  return Uint8Array.from([0xff, 0xff, 0xff, raw & 0xff, raw >>> 8, 0xff, 0xff, 0xff]);
}

/** ET1 payload for a coolant temperature. */
export function et1Payload(coolantC: number): Uint8Array {
  return Uint8Array.from([Math.round(coolantC) + 40, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]);
}

export class J1939Generator {
  private readonly startMs: number;

  constructor(
    private readonly bus: SimulatedCanBus,
    private readonly clock: Clock,
    private readonly sourceAddress = 0x00,
  ) {
    this.startMs = clock.monotonicMs();
  }

  /** Starts the periodic EEC1 and ET1 broadcasts (until `bus.stop()`). */
  start(): void {
    this.every(100, () => this.broadcast(3, Pgn.eec1, eec1Payload(this.state().rpm)));
    this.every(1000, () => this.broadcast(6, Pgn.et1, et1Payload(this.state().coolantC)));
  }

  /** The engine now. */
  state(): EngineState {
    return engineAt(this.clock.monotonicMs() - this.startMs);
  }

  /** One single-frame broadcast. */
  broadcast(priority: number, pgn: number, data: Uint8Array): void {
    this.bus.inject({ id: encodeJ1939Id(priority, pgn, this.sourceAddress), extended: true, data });
  }

  /** A multi-packet broadcast of `data` under `pgn`. */
  sendBam(pgn: number, data: Uint8Array, packetGapMs = 50): void {
    const packets = Math.ceil(data.length / 7);
    const cm = Uint8Array.from([
      BAM_CONTROL,
      data.length & 0xff,
      data.length >>> 8,
      packets,
      0xff,
      pgn & 0xff,
      (pgn >>> 8) & 0xff,
      pgn >>> 16,
    ]);
    this.broadcast(7, Pgn.tpCm, cm);
    for (let n = 1; n <= packets; n++) {
      const dt = new Uint8Array(8).fill(0xff);
      dt[0] = n;
      dt.set(data.subarray((n - 1) * 7, n * 7), 1);
      this.bus.schedule(() => this.broadcast(7, Pgn.tpDt, dt), n * packetGapMs);
    }
  }

  private every(periodMs: number, fn: () => void): void {
    const tick = (): void => {
      fn();
      this.bus.schedule(tick, periodMs);
    };
    this.bus.schedule(tick, 0);
  }
}
