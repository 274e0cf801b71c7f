/**
 * The Pins port on Moddable: ECMA-419 `Digital`, `Analog` and `PWM` objects,
 * nearly pass-throughs (STYLE.md practice 1), each wrapped in one small class
 * instance (closures would cost heap slots per channel on XS). Outputs read back the level or duty
 * last written: ECMA-419 PWM has no read, and reading a pin in output mode is not
 * portable across ESP32 variants.
 */
import { AgentError } from '../../src/errors.js';
import type { AnalogInput, DigitalInput, DigitalOutput, Pins, PwmOutput } from '../../src/ports.js';
import type { IoClasses } from './io.js';

function open<T>(kind: string, pin: number, make: () => T): T {
  try {
    return make();
  } catch (e) {
    throw new AgentError('pin.unavailable', `${kind} pin ${pin} cannot be opened`, { cause: e });
  }
}

/** An opened ECMA-419 object; closing is the same for every kind (Analog and PWM may have no close). */
class Opened<T> {
  constructor(protected readonly io: T) {}
  close(): void {
    (this.io as { close?: () => void }).close?.();
  }
}

/** A digital input: one object of a class per pin, no closures (heap per channel on XS). */
class DigitalIn extends Opened<InstanceType<IoClasses['Digital']>> implements DigitalInput {
  read(): boolean {
    return this.io.read() === 1;
  }
}

/** A digital output; reads back the level last written. */
class DigitalOut extends Opened<InstanceType<IoClasses['Digital']>> implements DigitalOutput {
  private level = false;
  write(value: boolean): void {
    this.io.write(value ? 1 : 0);
    this.level = value;
  }
  read(): boolean {
    return this.level;
  }
}

class AnalogIn extends Opened<InstanceType<IoClasses['Analog']>> implements AnalogInput {
  readonly resolution = this.io.resolution;
  read(): number {
    return this.io.read();
  }
}

/** A PWM output; reads back the duty last written (ECMA-419 PWM has no read). */
class PwmOut extends Opened<InstanceType<IoClasses['PWM']>> implements PwmOutput {
  readonly resolution = this.io.resolution;
  private duty = 0;
  write(value: number): void {
    this.io.write(value);
    this.duty = value;
  }
  read(): number {
    return this.duty;
  }
}

export class ModdablePins implements Pins {
  constructor(
    private readonly io: IoClasses,
    /** PWM frequency for analog outputs, hertz. */
    private readonly pwmHz = 1000,
  ) {}

  digitalInput({ pin }: { pin: number }): DigitalInput {
    return new DigitalIn(open('digital input', pin, () => new this.io.Digital({ pin, mode: this.io.Digital.Input })));
  }

  digitalOutput({ pin }: { pin: number }): DigitalOutput {
    return new DigitalOut(
      open('digital output', pin, () => new this.io.Digital({ pin, mode: this.io.Digital.Output })),
    );
  }

  analogInput({ pin }: { pin: number }): AnalogInput {
    return new AnalogIn(open('analog input', pin, () => new this.io.Analog({ pin })));
  }

  pwmOutput({ pin }: { pin: number }): PwmOutput {
    return new PwmOut(open('PWM output', pin, () => new this.io.PWM({ pin, hz: this.pwmHz })));
  }
}
