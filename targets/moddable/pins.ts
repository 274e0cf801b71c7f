/**
 * The Pins port on Moddable: ECMA-419 `Digital`, `Analog` and `PWM` objects,
 * nearly pass-throughs (STYLE.md practice 1), each wrapped in one small class
 * instance, Pin or OutputPin (closures would cost heap slots per channel on XS). Outputs read
 * back the level or duty last written: ECMA-419 PWM has no read, and reading a
 * pin in output mode is not portable across ESP32 variants.
 */
import { AgentError } from '../../src/errors.js';
import type { Pins } from '../../src/ports.js';
import type { IoClasses } from './io.js';

/** What the four ECMA-419 objects have in common here (`resolution`: Analog and PWM only, not Digital). */
interface Io {
  read(): number;
  write(value: number): void;
  close?(): void;
  readonly resolution?: number;
}

/**
 * An input pin of any kind: one field, the ECMA-419 object (heap per channel on
 * XS). A Digital object has no `resolution`: its 0/1 reads as a boolean.
 */
class Pin {
  readonly #io: Io;

  constructor(io: Io) {
    this.#io = io;
  }

  get resolution(): number {
    return this.#io.resolution ?? 1;
  }

  read(): number | boolean {
    const value = this.#io.read();
    return this.#io.resolution === undefined ? value === 1 : value;
  }

  write(value: number | boolean): void {
    this.#io.write(Number(value));
  }

  close(): void {
    // Analog and PWM may have no close.
    this.#io.close?.();
  }
}

/** An output pin: reads back what it last wrote. */
class OutputPin extends Pin {
  #written: number | boolean;

  constructor(io: Io) {
    super(io);
    this.#written = io.resolution === undefined ? false : 0;
  }

  override read(): number | boolean {
    return this.#written;
  }

  override write(value: number | boolean): void {
    super.write(value);
    this.#written = value;
  }
}

/** The board's pins through its ECMA-419 classes; analog outputs are PWM at `pwmHz`. */
export function moddablePins({ Digital, Analog, PWM }: IoClasses, pwmHz: number): Pins {
  /** The opener of one kind of pin. */
  const opener =
    (digital: boolean, output: boolean) =>
    ({ pin }: { pin: number }): Pin => {
      try {
        const io = digital
          ? new Digital({ pin, mode: output ? Digital.Output : Digital.Input })
          : output
            ? new PWM({ pin, hz: pwmHz })
            : new Analog({ pin });
        return output ? new OutputPin(io as Io) : new Pin(io as Io);
      } catch (e) {
        throw new AgentError('pin.unavailable', 'cannot open', { cause: e });
      }
    };
  return {
    digitalInput: opener(true, false) as Pins['digitalInput'],
    digitalOutput: opener(true, true) as Pins['digitalOutput'],
    analogInput: opener(false, false) as Pins['analogInput'],
    pwmOutput: opener(false, true) as Pins['pwmOutput'],
  };
}
