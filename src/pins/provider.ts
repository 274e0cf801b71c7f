/**
 * Channel drivers for the board's pins (docs/agent.md, "Sampling"): `digitalInput`
 * and `analogInput` read the Pins port each scan; `digitalOutput` and
 * `analogOutput` (PWM) read back the level or duty they drive, and take desired
 * values as the agent hands them (ChannelSlot.write has checked the type,
 * inverse-scaled them to raw duty counts and checked them against `rawRange`). Each driver reuses one sample object, so a
 * scan allocates nothing, and is one object of a class (no closures), so a
 * channel holds few heap slots on XS. A pin that cannot be opened rejects its
 * channel.
 */
import { FAILED, type ChannelDriver, type ChannelDriverProvider, type Sample } from '../agent/driver.js';
import type { RawRange } from '../codec/scale.js';
import { channelOf, type Channel, type PinChannel } from '../config/model.js';
import { Errno } from '../errno.js';
import { AgentError, messageOf } from '../errors.js';
import type { Pins, PwmOutput } from '../ports.js';

/** Any pin the drivers read: the four Pins port objects. */
interface ReadablePin {
  read(): boolean | number;
  close(): void;
}

/**
 * An input's driver: one object per channel, methods on the prototype, no
 * closures (on XS each closure costs about ten heap slots per channel). The
 * driver is its own last reading: the sample a scan returns is the driver
 * itself (`ok`, `value`), so no second object per channel. A throwing read
 * reports -EIO.
 */
class PinReader<P extends ReadablePin> implements ChannelDriver {
  readonly ok = true;
  value: boolean | number = 0;
  declare protected readonly io: P;

  constructor(io: P) {
    // Not enumerable: whoever copies the sample ({...sample}, JSON) sees only `ok` and `value`.
    Object.defineProperty(this, 'io', { value: io });
  }

  sample(): Sample {
    try {
      this.value = this.io.read();
      return this;
    } catch {
      return FAILED;
    }
  }

  close(): void {
    this.io.close();
  }
}

/** An output pin (DigitalOutput: a boolean, PwmOutput: a duty count). */
interface WritablePin extends ReadablePin {
  write(value: boolean | number): void;
}

/** Outputs take desired values the agent checked (ChannelSlot.write): a boolean, a duty count within rawRange. */
class OutputDriver<P extends WritablePin> extends PinReader<P> {
  applyDesired(value: boolean | number): Sample {
    this.io.write(value);
    return this.sample();
  }
}

class PwmOutputDriver extends OutputDriver<PwmOutput> {
  /** Made on demand (a desired value is rare): not a field of the sample. */
  get rawRange(): RawRange {
    return { min: 0, max: 2 ** this.io.resolution - 1, integer: true };
  }
}

/**
 * The driver of each pin channel type: the one table of the pin types. Each opens its pin with the Pins
 * port's opener of the same name, but an analog output is a PWM one (`pwmOutput`).
 */
const drivers: Readonly<Record<PinChannel['type'], new (io: never) => ChannelDriver>> = {
  digitalInput: PinReader,
  analogInput: PinReader,
  digitalOutput: OutputDriver,
  analogOutput: PwmOutputDriver,
};

/** The provider of the four pin channel types, over the host's Pins port. */
export class PinChannelProvider implements ChannelDriverProvider {
  readonly types = Object.keys(drivers) as PinChannel['type'][];

  declare private readonly pins: Pins;

  constructor(pins: Pins) {
    this.pins = pins;
  }

  create(config: Channel): ChannelDriver {
    const channel = channelOf(config, this.types);
    const type = channel.type;
    try {
      return new drivers[type](this.pins[type === 'analogOutput' ? 'pwmOutput' : type]({ pin: channel.pin }) as never);
    } catch (e) {
      throw new AgentError('pin.unavailable', `pins ${channel.pin}: ${messageOf(e)}`, {
        errno: Errno.EIO,
        cause: e,
      });
    }
  }
}
