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
  private port: SerialPort | undefined;
  private readonly options: GnssLocationProviderOptions;

  constructor(options: GnssLocationProviderOptions) {
    this.options = options;
    this.tracker = new FixTracker({ clock: options.clock });
    const tracker = this.tracker;
    this.parser = new NmeaParser({ onSentence: (s) => tracker.onSentence(s) });
  }

  create(channel: Channel): LocationDriver {
    if (channel.type !== 'location') {
      throw new AgentError('config.invalid', `gnss: channel ${channel.key} is ${channel.type}, not location`);
    }
    this.open();
    return new LocationDriver(channel, this.tracker, this.options.logger);
  }

  close(): void {
    const port = this.port;
    this.port = undefined;
    port?.close();
  }

  /** Opens the receiver's port once, on the first location channel. */
  private open(): void {
    if (this.port !== undefined) return;
    const { serial, port, logger } = this.options;
    try {
      this.port = serial.open(port, {
        onData: (bytes) => this.parser.push(bytes),
        onError: (error) =>
          logger.log('warn', 'gnss: serial port error', { port: String(port.port), error: error.message }),
      });
    } catch (e) {
      const message = e instanceof Error ? e.message : String(e);
      throw new AgentError('pin.unavailable', `gnss: cannot open serial port ${String(port.port)}: ${message}`, {
        errno: Errno.ENODEV,
        cause: e,
      });
    }
    logger.log('info', 'gnss: receiver port open', { port: String(port.port), baudRate: port.baudRate });
  }
}

/** One location channel: the tracker's fix, or -ETIMEDOUT, in reused objects. */
export class LocationDriver implements ChannelDriver {
  private readonly location: Location = {};
  private readonly okSample: Sample = { ok: true, value: this.location };
  private readonly timedOut: Sample = { ok: false, errno: Errno.ETIMEDOUT };
  private lastOk: boolean | undefined;

  constructor(
    private readonly channel: LocationChannel,
    private readonly tracker: FixTracker,
    private readonly logger: Logger,
  ) {}

  sample(): Sample {
    const t = this.tracker;
    const ok = t.valid && t.ageMs() <= this.channel.timeoutMs;
    if (ok !== this.lastOk) {
      this.lastOk = ok;
      this.logger.log('info', ok ? 'gnss: fix acquired' : 'gnss: no valid fix', {
        channel: this.channel.key,
        ageMs: Number.isFinite(t.ageMs()) ? t.ageMs() : -1,
      });
    }
    if (!ok) return this.timedOut;
    const loc = this.location;
    loc.lat = t.lat;
    loc.lon = t.lon;
    set(loc, 'alt', t.altM);
    set(loc, 'pdop', t.pdop);
    set(loc, 'hdop', t.hdop);
    set(loc, 'vdop', t.vdop);
    set(loc, 'sats', t.sats);
    return this.okSample;
  }

  close(): void {
    // The port is shared by all location channels; the provider closes it.
  }
}

function set(loc: Location, field: 'alt' | 'pdop' | 'hdop' | 'vdop' | 'sats', value: number): void {
  if (Number.isNaN(value)) delete loc[field];
  else loc[field] = value;
}
