/**
 * A simulated GNSS receiver: streams NMEA 0183 at one epoch per interval (1 Hz
 * by default) on the injected Clock, from a route or a recorded log, with
 * scripted faults: fix loss, stuck UTC time, silence, garbage bytes between
 * sentences and line noise inside them. Bytes go to a sink in chunks, as a
 * UART delivers them.
 *
 *   const rx = new SimulatedReceiver({ clock, route: { waypoints, speedMps: 10 } });
 *   rx.attach(fakeSerialPort);           // anything with deliver(bytes)
 *   // or: new SimulatedGnssSerial(rx) as the `Serial` of a GnssLocationProvider
 */
import type { Clock, TimerHandle } from '../../src/ports.js';
import { LogSource, RouteSource, type EpochSource } from './epoch-sources.js';
import type { RouteOptions } from './route.js';
import { seededRandom } from '../pins/signals.js';

/** Seconds since `attach`, half-open: fromS <= t < toS. */
export interface TimeWindow {
  fromS: number;
  toS: number;
}

export interface ReceiverFaults {
  /** Route only: the receiver reports no fix (GGA quality 0, RMC V, GSA mode 1) while time advances. */
  fixLoss?: TimeWindow[];
  /** The receiver repeats its last epoch verbatim: the UTC time stops advancing. */
  stuckTime?: TimeWindow[];
  /** Nothing at all is sent (receiver unplugged or muted). */
  silence?: TimeWindow[];
  /** Random bytes inserted before each sentence (count per epoch). */
  garbageBytesPerEpoch?: number;
  /** Probability that each byte of a sentence is replaced by a random byte. */
  noiseRate?: number;
  /** Seed of the deterministic random source (faults and the simulated sky). Default 1. */
  seed?: number;
}

export interface SimulatedReceiverOptions {
  clock: Clock;
  /** Drive a route... */
  route?: RouteOptions;
  /** ...or replay a recorded log (text; gpsd's `#` header lines are skipped). */
  log?: string;
  /** Replay the log again from the start at its end (default: go silent). */
  loopLog?: boolean;
  faults?: ReceiverFaults;
  /** Epoch interval, ms; default 1000. */
  intervalMs?: number;
  /** Bytes per delivery to the sink; default 64. */
  chunkBytes?: number;
}

/** Where the receiver's bytes go (FakeSerialPort and SimulatedGnssSerial's ports have it). */
export interface ReceiverSink {
  deliver(bytes: Uint8Array): void;
}

const inWindow = (windows: readonly TimeWindow[] | undefined, s: number): boolean =>
  windows?.some((w) => s >= w.fromS && s < w.toS) ?? false;

export class SimulatedReceiver {
  /** Epochs written, and bytes delivered. */
  epochs = 0;
  bytesSent = 0;
  private readonly source: EpochSource;
  private readonly random: () => number;
  private readonly intervalMs: number;
  private sink: ReceiverSink | undefined;
  private timer: TimerHandle | undefined;
  private startMono = 0;
  private startWallMs = 0;
  private lastEpoch = '';

  constructor(private readonly options: SimulatedReceiverOptions) {
    this.random = seededRandom(options.faults?.seed ?? 1);
    this.intervalMs = options.intervalMs ?? 1000;
    if (!(this.intervalMs > 0)) throw new RangeError('intervalMs must be > 0');
    if ((options.route === undefined) === (options.log === undefined)) {
      throw new RangeError('a simulated receiver needs exactly one of route or log');
    }
    this.source =
      options.route !== undefined
        ? new RouteSource(options.route, seededRandom((options.faults?.seed ?? 1) + 1))
        : new LogSource(options.log ?? '', options.loopLog ?? false);
  }

  /** Starts streaming to `sink`: the first epoch right away (at the next timer turn), then every interval. */
  attach(sink: ReceiverSink): this {
    this.detach();
    this.sink = sink;
    this.startMono = this.options.clock.monotonicMs();
    this.startWallMs = Math.floor(this.options.clock.wallMs() / 1000) * 1000;
    this.timer = this.options.clock.setTimer(() => this.tick(), 0);
    return this;
  }

  /** Stops streaming. */
  detach(): void {
    if (this.timer !== undefined) this.options.clock.clearTimer(this.timer);
    this.timer = undefined;
    this.sink = undefined;
  }

  private tick(): void {
    const clock = this.options.clock;
    const elapsedMs = clock.monotonicMs() - this.startMono;
    const seconds = elapsedMs / 1000;
    const faults = this.options.faults ?? {};
    this.timer = clock.setTimer(() => this.tick(), this.intervalMs);
    if (inWindow(faults.silence, seconds)) return;
    let text: string | undefined;
    if (inWindow(faults.stuckTime, seconds) && this.lastEpoch !== '') text = this.lastEpoch;
    else text = this.source.next(this.startWallMs + elapsedMs, elapsedMs, !inWindow(faults.fixLoss, seconds));
    if (text === undefined) return;
    this.lastEpoch = text;
    this.epochs++;
    this.send(this.mangle(text, faults));
  }

  /** Garbage before sentences and noise inside them. */
  private mangle(text: string, faults: ReceiverFaults): Uint8Array {
    const garbage = faults.garbageBytesPerEpoch ?? 0;
    const noise = faults.noiseRate ?? 0;
    const bytes: number[] = [];
    const sentences = text.split('$').slice(1);
    const garbageAt = sentences.map(() => 0);
    for (let g = 0; g < garbage; g++) {
      const i = Math.floor(this.random() * sentences.length);
      garbageAt[i] = (garbageAt[i] ?? 0) + 1;
    }
    sentences.forEach((s, i) => {
      for (let g = 0; g < (garbageAt[i] ?? 0); g++) bytes.push(Math.floor(this.random() * 256));
      for (const c of '$' + s)
        bytes.push(noise > 0 && this.random() < noise ? Math.floor(this.random() * 256) : c.charCodeAt(0));
    });
    return Uint8Array.from(bytes);
  }

  private send(bytes: Uint8Array): void {
    const chunk = Math.max(1, this.options.chunkBytes ?? 64);
    for (let i = 0; i < bytes.length && this.sink !== undefined; i += chunk) {
      const part = bytes.subarray(i, i + chunk);
      this.bytesSent += part.length;
      this.sink.deliver(part);
    }
  }
}
