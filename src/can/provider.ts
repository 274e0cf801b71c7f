/**
 * The ChannelDriverProvider of `can` channels (src/agent/driver.ts). Built by a
 * composition root with the Can port, the Clock, a Logger and the board's
 * interface names (bus key -> interface, e.g. "can0"; default: the bus key).
 * A bus is opened at its bitrate when its first channel is created and closed
 * on the next configuration or on `close`. A bus the board does not wire
 * reports -ENODEV; one whose interface fails to open, -EIO (said once in the log).
 *
 * Matching: a `j1939` channel by PGN (and source address when given); any other
 * channel by `canId`. Protocol `cattron` has no public frame description
 * (decisions.md section 2): its channels report -EOPNOTSUPP and the provider says
 * so once in its log.
 */
import type { ChannelDriver, ChannelDriverProvider, Sample } from '../agent/driver.js';
import type { CanBus, Channel, ChannelConfig } from '../config/model.js';
import { AgentError, info, warn } from '../errors.js';
import { Errno } from '../errno.js';
import type { Can, CanPort, Clock, Logger } from '../ports.js';
import { CanChannelDriver } from './driver.js';
import { CanListener, type CanMatch } from './listener.js';

export interface CanProviderOptions {
  can: Can;
  clock: Clock;
  logger: Logger;
  /**
   * Bus key -> board interface name. Absent: every bus uses its key as the
   * interface name. Present: a bus whose key is missing is not wired (-ENODEV).
   */
  interfaces?: Readonly<Record<string, string>>;
}

interface OpenBus {
  port: CanPort;
  listener: CanListener;
}

/** A channel that only ever reports one error. */
class ErrorDriver implements ChannelDriver {
  private readonly sampleValue: Sample;
  constructor(errno: number) {
    this.sampleValue = { ok: false, errno };
  }
  sample(): Sample {
    return this.sampleValue;
  }
  close(): void {}
}

export class CanProvider implements ChannelDriverProvider {
  readonly types = ['can'] as const;
  private buses = new Map<string, CanBus>();
  private readonly open = new Map<string, OpenBus | { errno: number }>();
  private cattronSaid = false;

  constructor(private readonly options: CanProviderOptions) {}

  /** Takes the buses of `config`; a bus whose settings are unchanged stays open (a reload). */
  configure(config: ChannelConfig): void {
    const buses = new Map<string, CanBus>();
    for (const bus of config.buses) if (bus.type === 'can') buses.set(bus.key, bus);
    for (const [key, open] of [...this.open]) {
      if (JSON.stringify(buses.get(key)) === JSON.stringify(this.buses.get(key))) continue;
      if (!('errno' in open)) open.port.close();
      this.open.delete(key);
    }
    this.buses = buses;
  }

  create(channel: Channel): ChannelDriver {
    if (channel.type !== 'can') throw new AgentError('internal', `can provider got a ${channel.type} channel`);
    if (channel.protocol?.type === 'cattron') {
      if (!this.cattronSaid) {
        this.cattronSaid = true;
        warn(
          this.options.logger,
          `can: channel ${channel.key} uses protocol cattron, which has no public frame description; ` +
            'cattron channels report -EOPNOTSUPP (-95)',
        );
      }
      return new ErrorDriver(Errno.EOPNOTSUPP);
    }
    const bus = this.bus(channel.bus);
    if ('errno' in bus) return new ErrorDriver(bus.errno);
    const p = channel.protocol;
    let match: CanMatch;
    if (p?.type === 'j1939') {
      match = { kind: 'pgn', pgn: p.pgn, ...(p.sourceAddress === undefined ? {} : { sourceAddress: p.sourceAddress }) };
    } else if (channel.canId !== undefined) {
      match = { kind: 'id', id: channel.canId };
    } else {
      throw new AgentError('config.invalid', `can channel ${channel.key}: needs canId or a j1939 PGN`);
    }
    return new CanChannelDriver(channel, bus.listener.subscribe(match), this.options.clock);
  }

  /** The listener of an open bus (for counters and tests). */
  listener(busKey: string): CanListener | undefined {
    const bus = this.open.get(busKey);
    return bus === undefined || 'errno' in bus ? undefined : bus.listener;
  }

  close(): void {
    for (const bus of this.open.values()) if (!('errno' in bus)) bus.port.close();
    this.open.clear();
  }

  private bus(key: string): OpenBus | { errno: number } {
    const known = this.open.get(key);
    if (known !== undefined) return known;
    const opened = this.openBus(key);
    this.open.set(key, opened);
    return opened;
  }

  private openBus(key: string): OpenBus | { errno: number } {
    const { can, clock, logger } = this.options;
    const bus = this.buses.get(key);
    if (bus === undefined) {
      logger.log('error', `can: no bus "${key}" in the configuration; its channels report -ENODEV`);
      return { errno: Errno.ENODEV };
    }
    const interfaces = this.options.interfaces;
    const name = interfaces === undefined ? key : interfaces[key];
    if (name === undefined) {
      warn(logger, `can: bus "${key}" is not wired to a CAN interface on this board; its channels report -ENODEV`);
      return { errno: Errno.ENODEV };
    }
    const listener = new CanListener(clock);
    try {
      const port = can.open(
        { bus: name, bitrate: bus.bitrate },
        {
          onFrame: (frame) => listener.onFrame(frame),
          onError: (e) => warn(logger, `can: bus "${key}": ${e.message}`),
        },
      );
      info(logger, `can: bus "${key}" on ${name} at ${bus.bitrate} bit/s`);
      return { port, listener };
    } catch (e) {
      const message = e instanceof Error ? e.message : String(e);
      logger.log('error', `can: bus "${key}" could not be opened: ${message}; its channels report -EIO`);
      return { errno: Errno.EIO };
    }
  }
}
