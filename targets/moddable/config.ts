/**
 * The board configuration: the manifest's `config` (compiled into the firmware,
 * settable on the mcconfig command line as `name=value`), each entry overridable
 * at run time by a preference of the same name in domain `config` (names are at
 * most 15 characters: the ESP32 NVS limit). Validated by one table; a bad entry
 * stops the boot with `config.invalid` naming it: `board config: gnssRx:
 * expected integer 0..63, got "x"`.
 */
import { AgentError } from '../../src/errors.js';
import type { LogLevel } from '../../src/ports.js';

/** Domain of the override preferences. */
export const CONFIG_DOMAIN = 'config';

/** UART pins of one serial port. */
export interface SerialPins {
  receive: number;
  transmit: number;
}

export interface BoardConfig {
  serviceUrl: string;
  /**
   * Name of a DER CA certificate among the firmware's resources (e.g.
   * `dds-ca.der`) that https/wss servers must chain to (docs/tls.md); without it
   * the SDK's certificate store (`ca*.der` resources) is used.
   */
  caCert: string | undefined;
  deviceKey: string;
  token: string;
  /** GNSS receiver UART: port number, baud rate, pins. */
  gnss: { port: number; baudRate: number; pins: SerialPins } | undefined;
  /** Key of the Modbus bus (channels/list `buses`) wired to the RS-485 UART. Default `rs485`. */
  modbusBus: string;
  /** Modbus RS-485 UART: port, pins, driver-enable (direction) pin. */
  modbus: { port: number; pins: SerialPins; directionPin: number | undefined } | undefined;
  sntpHost: string | undefined;
  logLevel: LogLevel;
  pwmHz: number;
  /**
   * Largest batch (JSON bytes), so that one outbox entry fits one preference
   * value. Default 4096.
   */
  batchBytes: number;
  /** Outbox bound in bytes; default 12288: what the ESP32's default 24 KiB NVS partition can hold. */
  outboxBytes: number;
}

/** The text settings, each any non-blank text unless this table says: [pattern, what it means]. */
const TEXTS: Readonly<Record<string, readonly [RegExp, string]>> = {
  serviceUrl: [/^https?:\/\/[^/\s]+(\/\S*)?$/, 'http(s)://host[:port][/path]'],
  caCert: [/^[\w.-]+\.der$/, 'a DER resource name, e.g. dds-ca.der'],
  logLevel: [/^(debug|info|warn|error)$/, 'debug|info|warn|error'],
};

/** The integer settings (given as strings on the command line and in preferences too): [min, max, default]. */
const INTEGERS = {
  gnssPort: [0, 99],
  gnssBaud: [300, 8e6, 9600],
  gnssRx: [0, 63, 16],
  gnssTx: [0, 63, 17],
  modbusPort: [0, 99],
  modbusRx: [0, 63, 26],
  modbusTx: [0, 63, 27],
  modbusDirPin: [0, 63],
  pwmHz: [1, 1e8, 1000],
  batchBytes: [256, 65536, 4096],
  outboxBytes: [1024, 1e9, 12288],
} as const satisfies Record<string, readonly [number, number, number?]>;

type Integer<K extends keyof typeof INTEGERS> = (typeof INTEGERS)[K] extends readonly [number, number, number]
  ? number
  : number | undefined;

/** Merges `manifest` config with `override(name)` values and validates the result. */
export function readBoardConfig(manifest: unknown, override: (name: string) => unknown): BoardConfig {
  const base = (typeof manifest === 'object' && manifest !== null ? manifest : {}) as Record<string, unknown>;
  const get = (name: string): unknown => {
    const value = override(name) ?? base[name];
    return value === '' || value === null ? undefined : value;
  };
  const fail = (name: string, expected: string, value: unknown): never => {
    // A mistyped token is not echoed to the console.
    const got = name === 'token' ? typeof value : JSON.stringify(value).slice(0, 40);
    throw new AgentError('config.invalid', `board config: ${name}: expected ${expected}, got ${got}`);
  };
  function text(name: string): string | undefined {
    const value = get(name);
    const [pattern, expected] = TEXTS[name] ?? [/\S/, 'text'];
    if (value !== undefined && (typeof value !== 'string' || !pattern.test(value))) fail(name, expected, value);
    return value as string | undefined;
  }
  function required(name: 'serviceUrl' | 'deviceKey' | 'token'): string {
    return text(name) ?? fail(name, 'a value', undefined);
  }
  /** The integer `name`, its default when absent: `number` for the settings with one. */
  function int<K extends keyof typeof INTEGERS>(name: K): Integer<K> {
    const [min, max, fallback] = INTEGERS[name] as readonly [number, number, number?];
    const raw = get(name);
    if (raw === undefined) return fallback as Integer<K>;
    const value = typeof raw === 'string' && /^\s*-?\d+\s*$/.test(raw) ? Number(raw) : raw;
    if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max)
      fail(name, `integer ${min}..${max}`, raw);
    return value as Integer<K>;
  }
  const gnssPort = int('gnssPort');
  const modbusPort = int('modbusPort');
  return {
    serviceUrl: required('serviceUrl').replace(/\/+$/, ''),
    caCert: text('caCert'),
    deviceKey: required('deviceKey'),
    token: required('token'),
    gnss:
      gnssPort === undefined
        ? undefined
        : {
            port: gnssPort,
            baudRate: int('gnssBaud'),
            pins: { receive: int('gnssRx'), transmit: int('gnssTx') },
          },
    modbus:
      modbusPort === undefined
        ? undefined
        : {
            port: modbusPort,
            pins: { receive: int('modbusRx'), transmit: int('modbusTx') },
            directionPin: int('modbusDirPin'),
          },
    modbusBus: text('modbusBus') ?? 'rs485',
    sntpHost: text('sntp'),
    logLevel: (text('logLevel') ?? 'info') as LogLevel,
    pwmHz: int('pwmHz'),
    batchBytes: int('batchBytes'),
    outboxBytes: int('outboxBytes'),
  };
}
