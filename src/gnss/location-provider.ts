/**
 * The `location` channel provider: one GNSS receiver on one serial port (board
 * configuration: port and baud rate, given by the composition root), parsed by
 * NmeaParser into a FixTracker, sampled by every location channel.
 *
 * A channel's sample is a Location (fields present when known), or -ETIMEDOUT
 * (-110) when the fix is lost or older than the channel's `timeout`
 * (decisions.md sections 1 and 4; docs/gnss.md). The agent expands the Location into
 * the `<key>.<field>.reported` states and the Location measurement.
 */
import {
  errorSample,
  type ChannelDriver,
  type ChannelDriverProvider,
  type Location,
  type Sample,
} from '../agent/driver.js';
import { channelOf, type Channel } from '../config/model.js';
import { Errno } from '../errno.js';
import { AgentError, info } from '../errors.js';
import type { Clock, Logger, Serial, SerialOptions, SerialPort } from '../ports.js';
import { FixTracker } from './fix-tracker.js';
import { NmeaParser, type NmeaTally } from './nmea-parser.js';

/** A location channel's driver: it answers at once, a Location or -ETIMEDOUT. */
export interface LocationDriver extends ChannelDriver {
  sample(): Sample;
}

export interface GnssLocationProviderOptions {
  /** The host's serial ports. */
  serial: Serial;
  /** Where the receiver is wired: port and baud rate (board configuration). */
  port: SerialOptions;
  clock: Clock;
  logger: Logger;
  /** Hears what the parser saw (host tools and tests count it; see CountingNmeaParser). */
  tally?: NmeaTally | undefined;
}

/** Serves `location` channels from one GNSS receiver. */
export class GnssLocationProvider implements ChannelDriverProvider {
  readonly types = ['location'] as const;
  declare readonly tracker: FixTracker;
  readonly #parser: NmeaParser;
  #port: SerialPort | undefined;
  readonly #options: GnssLocationProviderOptions;

  constructor(options: GnssLocationProviderOptions) {
    this.#options = options;
    this.#parser = new NmeaParser((this.tracker = new FixTracker(options)), options.tally);
  }

  /**
   * A location channel: the tracker's fix within the channel's timeout, or
   * -ETIMEDOUT, in reused objects; it logs when that changes. Opens the
   * receiver's port on the first channel.
   */
  create(config: Channel): LocationDriver {
    const channel = channelOf(config, this.types);
    const { tracker } = this;
    const { serial, port, logger } = this.#options;
    // The receiver's port, opened once, on the first location channel. It is read-only here (no writes
    // that could fail); on Node, ReopeningSerial logs a port's failure and return (docs/gnss.md). A bound
    // push, not an arrow: the channel's closure below keeps no more than it did.
    if (this.#port === undefined) {
      const parser = this.#parser;
      try {
        this.#port = serial.open(port, { onData: parser.push.bind(parser) });
      } catch (e) {
        throw new AgentError('pin.unavailable', `gnss ${port.port}: ${String(e)}`, { errno: Errno.ENODEV, cause: e });
      }
      info(logger, `gnss ${port.port}: open`, { baudRate: port.baudRate });
    }
    const location: Location = {};
    const fix: Sample = { ok: true, value: location };
    let lastOk: boolean | undefined;
    return {
      sample: () => {
        const ok = tracker.locate(channel.timeoutMs, location);
        if (ok !== lastOk) {
          lastOk = ok;
          info(logger, `gnss ${channel.key}: ${ok ? 'fix' : 'no fix'}`);
        }
        return ok ? fix : TIMED_OUT;
      },
      // The port is shared by all location channels; the provider closes it.
      close() {},
    };
  }

  close(): void {
    this.#port?.close();
    this.#port = undefined;
  }
}

const TIMED_OUT = errorSample(Errno.ETIMEDOUT);
