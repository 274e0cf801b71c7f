/**
 * The ChannelDriverProvider of `modbus` channels (src/agent/driver.ts). Built by
 * a composition root with the Serial port, the Clock, a Logger and the board's
 * wiring (which serial port and RS-485 direction pin each bus key uses);
 * `configure` receives the channel list's buses (baud rate, data bits, parity,
 * stop bits). A bus's serial port is opened when its first channel is created,
 * and closed when a configuration changes or removes the bus, or on `close`.
 *
 * A channel on a bus the board does not wire reports -ENODEV; a bus whose port
 * failed to open reports -EIO. Each is said once in the log.
 */
import type { ChannelDriverProvider } from '../agent/driver.js';
import { channelOf, type Channel, type ChannelConfig, type ModbusBus } from '../config/model.js';
import { info, messageOf, warn } from '../errors.js';
import { Errno } from '../errno.js';
import type { Clock, Logger, Serial } from '../ports.js';
import { ModbusChannelDriver } from './driver.js';
import { ModbusMaster } from './master.js';

/** Board wiring of one Modbus bus. */
export interface ModbusPortConfig {
  /** Serial port name or number (a device path on Node). */
  port: string | number;
  /** RS-485 driver-enable pin, when the board has one. */
  directionPin?: number | undefined;
}

export interface ModbusProviderOptions {
  serial: Serial;
  clock: Clock;
  logger: Logger;
  /** Bus key -> serial port wiring. */
  ports: Readonly<Record<string, ModbusPortConfig>>;
}

/** The master of an open bus, or the error number of one that is not. */
type Line = ModbusMaster | number;

export class ModbusProvider implements ChannelDriverProvider {
  readonly types = ['modbus'] as const;
  readonly #options: ModbusProviderOptions;
  #buses = new Map<string, ModbusBus>();
  readonly #lines = new Map<string, Line>();

  constructor(options: ModbusProviderOptions) {
    this.#options = options;
  }

  /** Takes the buses of `config`; a bus whose settings are unchanged keeps its open line (a reload). */
  configure(config: ChannelConfig): void {
    const buses = new Map<string, ModbusBus>();
    for (const bus of config.buses) if (bus.type === 'modbus') buses.set(bus.key, bus);
    for (const key of this.#lines.keys()) {
      if (JSON.stringify(buses.get(key)) !== JSON.stringify(this.#buses.get(key))) this.#close(key);
    }
    this.#buses = buses;
  }

  create(config: Channel): ModbusChannelDriver {
    const channel = channelOf(config, this.types);
    let line = this.#lines.get(channel.bus);
    if (line === undefined) this.#lines.set(channel.bus, (line = this.#open(channel.bus)));
    return new ModbusChannelDriver(channel, line, this.#options.logger);
  }

  close(): void {
    for (const key of this.#lines.keys()) this.#close(key);
  }

  #open(key: string): Line {
    const { serial, clock, logger, ports } = this.#options;
    const bus = this.#buses.get(key);
    const wiring = ports[key];
    const tag = `modbus: bus ${key}`;
    if (bus === undefined || wiring === undefined) {
      warn(logger, `${tag} not wired`);
      return Errno.ENODEV;
    }
    const { port: name, directionPin } = wiring;
    const { baudRate, dataBits, parity, stopBits } = bus;
    let master: ModbusMaster | undefined;
    try {
      const port = serial.open(
        { port: name, baudRate, dataBits, parity, stopBits, ...(directionPin === undefined ? {} : { directionPin }) },
        {
          onData: (bytes) => master?.onData(bytes),
          onError: (e) => warn(logger, `${tag}: ${e.message}`),
        },
      );
      master = new ModbusMaster(port, clock, logger, bus);
      info(logger, `${tag} on ${name} at ${baudRate}`);
      return master;
    } catch (e) {
      logger.log('error', `${tag}: ${messageOf(e)}`);
      return Errno.EIO;
    }
  }

  #close(key: string): void {
    const line = this.#lines.get(key);
    this.#lines.delete(key);
    if (typeof line === 'object') line.close();
  }
}
