/**
 * Fake pins: inputs whose level a test sets, outputs that record every write.
 * `unavailable` lists pin numbers that refuse to open (AgentError pin.unavailable).
 */
import { AgentError } from '../../src/errors.js';
import type { AnalogInput, DigitalInput, DigitalOutput, Pins, PwmOutput } from '../../src/ports.js';

export class FakePins implements Pins {
  /** Levels of digital inputs by pin number. */
  readonly digital = new Map<number, boolean>();
  /** Raw counts of analog inputs by pin number. */
  readonly analog = new Map<number, number>();
  /** Every write to an output, in order. */
  readonly writes: Array<{ pin: number; value: boolean | number }> = [];
  /** Current levels/duties of outputs. */
  readonly outputs = new Map<number, boolean | number>();
  readonly unavailable = new Set<number>();
  readonly failing = new Set<number>();
  readonly open = new Set<number>();
  reads = 0;
  resolution = 10;

  private check(pin: number): void {
    if (this.unavailable.has(pin)) throw new AgentError('pin.unavailable', `fake pin ${pin} is unavailable`);
    this.open.add(pin);
  }

  private read<T>(pin: number, value: T): T {
    this.reads++;
    if (this.failing.has(pin)) throw new AgentError('pin.unavailable', `fake pin ${pin} read failed`);
    return value;
  }

  digitalInput({ pin }: { pin: number }): DigitalInput {
    this.check(pin);
    return { read: () => this.read(pin, this.digital.get(pin) ?? false), close: () => this.open.delete(pin) };
  }

  analogInput({ pin }: { pin: number }): AnalogInput {
    this.check(pin);
    return {
      resolution: this.resolution,
      read: () => this.read(pin, this.analog.get(pin) ?? 0),
      close: () => this.open.delete(pin),
    };
  }

  digitalOutput({ pin }: { pin: number }): DigitalOutput {
    this.check(pin);
    return {
      write: (value: boolean) => {
        this.writes.push({ pin, value });
        this.outputs.set(pin, value);
      },
      read: () => this.read(pin, this.outputs.get(pin) === true),
      close: () => this.open.delete(pin),
    };
  }

  pwmOutput({ pin }: { pin: number }): PwmOutput {
    this.check(pin);
    return {
      resolution: this.resolution,
      write: (value: number) => {
        this.writes.push({ pin, value });
        this.outputs.set(pin, value);
      },
      read: () => this.read(pin, (this.outputs.get(pin) as number | undefined) ?? 0),
      close: () => this.open.delete(pin),
    };
  }
}
