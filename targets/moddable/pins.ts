/**
 * The Pins port on Moddable: ECMA-419 `Digital`, `Analog` and `PWM` objects,
 * nearly pass-throughs (STYLE.md practice 1). Outputs read back the level or duty
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

export class ModdablePins implements Pins {
  constructor(
    private readonly io: IoClasses,
    /** PWM frequency for analog outputs, hertz. */
    private readonly pwmHz = 1000,
  ) {}

  digitalInput({ pin }: { pin: number }): DigitalInput {
    const d = open('digital input', pin, () => new this.io.Digital({ pin, mode: this.io.Digital.Input }));
    return { read: () => d.read() === 1, close: () => d.close() };
  }

  digitalOutput({ pin }: { pin: number }): DigitalOutput {
    const d = open('digital output', pin, () => new this.io.Digital({ pin, mode: this.io.Digital.Output }));
    let level = false;
    return {
      write(value: boolean) {
        d.write(value ? 1 : 0);
        level = value;
      },
      read: () => level,
      close: () => d.close(),
    };
  }

  analogInput({ pin }: { pin: number }): AnalogInput {
    const a = open('analog input', pin, () => new this.io.Analog({ pin }));
    const closable = a as unknown as { close?: () => void };
    return { resolution: a.resolution, read: () => a.read(), close: () => closable.close?.() };
  }

  pwmOutput({ pin }: { pin: number }): PwmOutput {
    const p = open('PWM output', pin, () => new this.io.PWM({ pin, hz: this.pwmHz }));
    const closable = p as unknown as { close?: () => void };
    let duty = 0;
    return {
      resolution: p.resolution,
      write(value: number) {
        p.write(value);
        duty = value;
      },
      read: () => duty,
      close: () => closable.close?.(),
    };
  }
}
