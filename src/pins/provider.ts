/**
 * Channel drivers for the board's pins (issue 2, "Sampling"): `digitalInput`
 * and `analogInput` read the Pins port each scan; `digitalOutput` and
 * `analogOutput` (PWM) read back the level or duty they drive, and take desired
 * values (the agent has already inverse-scaled them to raw duty counts and
 * checked them against `rawRange`). Each driver reuses one sample object, so a
 * scan allocates nothing. A pin that cannot be opened rejects its channel.
 */
import type { ChannelDriver, ChannelDriverProvider, Sample, Value } from '../agent/driver.js';
import type { RawRange } from '../codec/scale.js';
import type { Channel, ChannelType, PinChannel } from '../config/model.js';
import { Errno } from '../errno.js';
import { AgentError, toAgentError } from '../errors.js';
import type { Pins } from '../ports.js';

type Mutable = { ok: true; value: boolean | number };

const failed: Sample = { ok: false, errno: Errno.EIO };
const invalid: Sample = { ok: false, errno: Errno.EINVAL };

/** Reads through `read` into a reused sample; a throwing read reports -EIO. */
function reader(read: () => boolean | number): () => Sample {
  const sample: Mutable = { ok: true, value: 0 };
  return () => {
    try {
      sample.value = read();
      return sample;
    } catch {
      return failed;
    }
  };
}

function createPinDriver(pins: Pins, channel: PinChannel): ChannelDriver {
  const pin = channel.pin;
  switch (channel.type) {
    case 'digitalInput': {
      const io = pins.digitalInput({ pin });
      return { sample: reader(() => io.read()), close: () => io.close() };
    }
    case 'analogInput': {
      const io = pins.analogInput({ pin });
      return { sample: reader(() => io.read()), close: () => io.close() };
    }
    case 'digitalOutput': {
      const io = pins.digitalOutput({ pin });
      const sample = reader(() => io.read());
      return {
        sample,
        applyDesired(value: Value): Sample {
          if (typeof value !== 'boolean') return invalid;
          io.write(value);
          return sample();
        },
        close: () => io.close(),
      };
    }
    case 'analogOutput': {
      const io = pins.pwmOutput({ pin });
      const sample = reader(() => io.read());
      const rawRange: RawRange = { min: 0, max: 2 ** io.resolution - 1, integer: true };
      return {
        sample,
        rawRange,
        applyDesired(value: Value): Sample {
          if (typeof value !== 'number' || !Number.isInteger(value)) return invalid;
          if (value < rawRange.min || value > rawRange.max) return { ok: false, errno: Errno.ERANGE };
          io.write(value);
          return sample();
        },
        close: () => io.close(),
      };
    }
  }
}

/** The provider of the four pin channel types, over the host's Pins port. */
export class PinChannelProvider implements ChannelDriverProvider {
  readonly types: readonly ChannelType[] = ['digitalInput', 'analogInput', 'digitalOutput', 'analogOutput'];

  constructor(private readonly pins: Pins) {}

  create(channel: Channel): ChannelDriver {
    if (
      channel.type !== 'digitalInput' &&
      channel.type !== 'analogInput' &&
      channel.type !== 'digitalOutput' &&
      channel.type !== 'analogOutput'
    ) {
      throw new AgentError('internal', `pins: not a pin channel type: ${channel.type}`);
    }
    try {
      return createPinDriver(this.pins, channel);
    } catch (e) {
      const error = toAgentError(e);
      throw new AgentError('pin.unavailable', `pin ${channel.pin}: ${error.message}`, { errno: Errno.EIO, cause: e });
    }
  }
}
