/**
 * Simulated pins behind the Pins port: each input pin follows a signal of
 * monotonic time (set by the simulated device or a test), outputs record what
 * was written (bounded history) and tell listeners. Unassigned inputs read low
 * / zero. Raw counts: analog pins have `resolution` bits (default 12, like an
 * ESP32 ADC); PWM outputs 10 bits.
 */
import type { AnalogInput, Clock, DigitalInput, DigitalOutput, Pins, PwmOutput } from '../../src/ports.js';

export type RawSource = (nowMs: number) => number | boolean;

export interface OutputWrite {
  pin: number;
  value: number | boolean;
  atMs: number;
}

export interface SimPinsOptions {
  analogResolution?: number;
  pwmResolution?: number;
  /** Writes kept in `history`. Default 1000. */
  maxHistory?: number;
}

export class SimPins implements Pins {
  private readonly sources = new Map<number, RawSource>();
  private readonly levels = new Map<number, number | boolean>();
  private readonly listeners: Array<(write: OutputWrite) => void> = [];
  readonly history: OutputWrite[] = [];
  readonly analogResolution: number;
  readonly pwmResolution: number;
  private readonly maxHistory: number;

  constructor(
    private readonly clock: Clock,
    options: SimPinsOptions = {},
  ) {
    this.analogResolution = options.analogResolution ?? 12;
    this.pwmResolution = options.pwmResolution ?? 10;
    this.maxHistory = options.maxHistory ?? 1000;
  }

  /** Drives input `pin` from `source` (raw counts or a level). */
  setSource(pin: number, source: RawSource): void {
    this.sources.set(pin, source);
  }

  /** Hears every output write. */
  onWrite(listener: (write: OutputWrite) => void): void {
    this.listeners.push(listener);
  }

  /** The level or duty an output is driven to, if written. */
  output(pin: number): number | boolean | undefined {
    return this.levels.get(pin);
  }

  private input(pin: number): number | boolean {
    const source = this.sources.get(pin);
    return source === undefined ? 0 : source(this.clock.monotonicMs());
  }

  private record(pin: number, value: number | boolean): void {
    this.levels.set(pin, value);
    const write = { pin, value, atMs: this.clock.monotonicMs() };
    this.history.push(write);
    if (this.history.length > this.maxHistory) this.history.shift();
    for (const listener of this.listeners) listener(write);
  }

  digitalInput({ pin }: { pin: number }): DigitalInput {
    return { read: () => Boolean(this.input(pin)), close: () => undefined };
  }

  analogInput({ pin }: { pin: number }): AnalogInput {
    const max = 2 ** this.analogResolution - 1;
    return {
      resolution: this.analogResolution,
      read: () => {
        const v = Number(this.input(pin));
        return Math.min(max, Math.max(0, Math.round(v)));
      },
      close: () => undefined,
    };
  }

  digitalOutput({ pin }: { pin: number }): DigitalOutput {
    return {
      write: (value: boolean) => this.record(pin, value),
      read: () => this.levels.get(pin) === true,
      close: () => undefined,
    };
  }

  pwmOutput({ pin }: { pin: number }): PwmOutput {
    return {
      resolution: this.pwmResolution,
      write: (value: number) => this.record(pin, value),
      read: () => Number(this.levels.get(pin) ?? 0),
      close: () => undefined,
    };
  }
}
