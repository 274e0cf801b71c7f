/**
 * The ChannelDriverProvider of `modbus` channels (src/agent/driver.ts). Built by
 * a composition root with the Serial port, the Clock, a Logger and the board
 * configuration (which serial port and RS-485 direction pin each bus key uses);
 * `configure` receives the channel list's buses (baud rate, data bits, parity,
 * stop bits). A bus's serial port is opened when its first channel is created,
 * and closed on the next configuration or on `close`.
 *
 * A channel on a bus the board does not wire reports -ENODEV; a bus whose port
 * failed to open reports -EIO. Each is said once in the log.
 */
import type { ChannelDriver, ChannelDriverProvider } from '../agent/driver.js';
import type { Channel, ChannelConfig, ModbusBus } from '../config/model.js';
import { AgentError } from '../errors.js';
import { Errno } from '../errno.js';
import type { Clock, Logger, Serial, SerialPort } from '../ports.js';
import { ModbusChannelDriver } from './driver.js';
import { ModbusMaster, type MasterOptions } from './master.js';
import { ModbusScanner } from './scan.js';
import { characterMs, silentIntervalMs } from './rtu-line.js';

/** Board wiring of one Modbus bus. */
export interface ModbusPortConfig {
  /** Serial port name or number (a device path on Node). */
  port: string | number;
  /** RS-485 driver-enable pin, when the board has one. */
  directionPin?: number;
}

export interface ModbusProviderOptions {
  serial: Serial;
  clock: Clock;
  logger: Logger;
  /** Bus key -> serial port wiring. */
  ports: Readonly<Record<string, ModbusPortConfig>>;
  /** Response timeout, retries and queue bound of every bus. */
  master?: Pick<MasterOptions, 'responseTimeoutMs' | 'retries' | 'queueLimit'>;
}

interface Line {
  port: SerialPort;
  master: ModbusMaster;
  scanner: ModbusScanner;
}

export class ModbusProvider implements ChannelDriverProvider {
  readonly types = ['modbus'] as const;
  private buses = new Map<string, ModbusBus>();
  private readonly lines = new Map<string, Line | { errno: number }>();

  constructor(private readonly options: ModbusProviderOptions) {}

  /** Takes the buses of `config`; a bus whose settings are unchanged keeps its open line (a reload). */
  configure(config: ChannelConfig): void {
    const buses = new Map<string, ModbusBus>();
    for (const bus of config.buses) if (bus.type === 'modbus') buses.set(bus.key, bus);
    for (const key of [...this.lines.keys()]) {
      if (JSON.stringify(buses.get(key)) !== JSON.stringify(this.buses.get(key))) this.closeLine(key);
    }
    this.buses = buses;
  }

  create(channel: Channel): ChannelDriver {
    if (channel.type !== 'modbus') throw new AgentError('internal', `modbus provider got a ${channel.type} channel`);
    const line = this.line(channel.bus);
    return new ModbusChannelDriver(channel, 'errno' in line ? line : line.scanner, this.options.logger);
  }

  /** The master of an open bus (for counters and tests). */
  master(busKey: string): ModbusMaster | undefined {
    const line = this.lines.get(busKey);
    return line === undefined || 'errno' in line ? undefined : line.master;
  }

  close(): void {
    for (const key of [...this.lines.keys()]) this.closeLine(key);
  }

  private line(key: string): Line | { errno: number } {
    const known = this.lines.get(key);
    if (known !== undefined) return known;
    const opened = this.open(key);
    this.lines.set(key, opened);
    return opened;
  }

  private open(key: string): Line | { errno: number } {
    const { serial, clock, logger } = this.options;
    const bus = this.buses.get(key);
    const wiring = this.options.ports[key];
    if (bus === undefined || wiring === undefined) {
      logger.log('warn', `modbus: bus "${key}" not wired on this board (-ENODEV)`);
      return { errno: Errno.ENODEV };
    }
    let master: ModbusMaster | undefined;
    try {
      const port = serial.open(
        {
          port: wiring.port,
          baudRate: bus.baudRate,
          dataBits: bus.dataBits,
          parity: bus.parity,
          stopBits: bus.stopBits,
          ...(wiring.directionPin === undefined ? {} : { directionPin: wiring.directionPin }),
        },
        {
          onData: (bytes) => master?.onData(bytes),
          onError: (e) => logger.log('warn', `modbus: bus "${key}": ${e.message}`),
        },
      );
      master = new ModbusMaster(port, clock, logger, {
        ...this.options.master,
        characterMs: characterMs(bus),
        silentIntervalMs: silentIntervalMs(bus),
      });
      logger.log('info', `modbus: bus "${key}" on ${String(wiring.port)} at ${bus.baudRate} baud`);
      return { port, master, scanner: new ModbusScanner(master, clock) };
    } catch (e) {
      const message = e instanceof Error ? e.message : String(e);
      logger.log('error', `modbus: bus "${key}" cannot open: ${message} (-EIO)`);
      return { errno: Errno.EIO };
    }
  }

  private closeLine(key: string): void {
    const line = this.lines.get(key);
    this.lines.delete(key);
    if (line === undefined || 'errno' in line) return;
    line.master.close();
    line.port.close();
  }
}
