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
import type { ChannelDriver, ChannelDriverProvider, Location, Sample } from '../agent/driver.js';
import type { Channel, LocationChannel } from '../config/model.js';
import { Errno } from '../errno.js';
import { AgentError } from '../errors.js';
import type { Clock, Logger, Serial, SerialOptions, SerialPort } from '../ports.js';
import { FixTracker } from './fix-tracker.js';
import { NmeaParser } from './nmea-parser.js';

export interface GnssLocationProviderOptions {
  /** The host's serial ports. */
  serial: Serial;
  /** Where the receiver is wired: port and baud rate (board configuration). */
  port: SerialOptions;
  clock: Clock;
  logger: Logger;
}

/** Serves `location` channels from one GNSS receiver. */
export class GnssLocationProvider implements ChannelDriverProvider {
  readonly types = ['location'] as const;
  readonly tracker: FixTracker;
  readonly parser: NmeaParser;
  #port: SerialPort | undefined;
  readonly #options: GnssLocationProviderOptions;

  constructor(options: GnssLocationProviderOptions) {
    this.#options = options;
    const tracker = (this.tracker = new FixTracker(options));
    this.parser = new NmeaParser({ onLine: (f) => tracker.onLine(f) });
  }

  create(channel: Channel): LocationDriver {
    if (channel.type !== 'location') throw new AgentError('config.invalid', `gnss ${channel.key}: not location`);
    this.#open();
    return new LocationDriver(channel, this.tracker, this.#options.logger);
  }

  close(): void {
    this.#port?.close();
    this.#port = undefined;
  }

  /** Opens the receiver's port once, on the first location channel. */
  #open(): void {
    if (this.#port !== undefined) return;
    const { serial, port, logger } = this.#options;
    // The receiver's port is read-only here (no writes that could fail); on Node,
    // ReopeningSerial logs a port's failure and return (docs/gnss.md).
    try {
      this.#port = serial.open(port, { onData: (bytes) => this.parser.push(bytes) });
    } catch (e) {
      throw new AgentError('pin.unavailable', `gnss ${port.port}: ${String(e)}`, { errno: Errno.ENODEV, cause: e });
    }
    logger.log('info', `gnss ${port.port}: open`, { baudRate: port.baudRate });
  }
}

/** One location channel: the tracker's fix within the channel's timeout, or -ETIMEDOUT, in reused objects. */
export class LocationDriver implements ChannelDriver {
  readonly #location: Location = {};
  readonly #okSample: Sample = { ok: true, value: this.#location };
  readonly #channel: LocationChannel;
  readonly #tracker: FixTracker;
  readonly #logger: Logger;
  #lastOk: boolean | undefined;

  constructor(channel: LocationChannel, tracker: FixTracker, logger: Logger) {
    this.#channel = channel;
    this.#tracker = tracker;
    this.#logger = logger;
  }

  sample(): Sample {
    const ok = this.#tracker.locate(this.#channel.timeoutMs, this.#location);
    if (ok !== this.#lastOk) {
      this.#lastOk = ok;
      this.#logger.log('info', `gnss ${this.#channel.key}: ${ok ? 'fix' : 'no fix'}`);
    }
    return ok ? this.#okSample : TIMED_OUT;
  }

  close(): void {
    // The port is shared by all location channels; the provider closes it.
  }
}

const TIMED_OUT: Sample = { ok: false, errno: Errno.ETIMEDOUT };
