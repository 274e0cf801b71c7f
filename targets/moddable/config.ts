/**
 * The board configuration: the manifest's `config` (compiled into the firmware,
 * settable on the mcconfig command line as `name=value`), each entry overridable
 * at run time by a preference of the same name in domain `config` (names are at
 * most 15 characters: the ESP32 NVS limit). Validated with the core's field
 * readers; a bad entry stops the boot with a clear message.
 */
import { AgentError } from '../../src/errors.js';
import { isObject, optEnum, optNumber, optString, reqString, type WireObject } from '../../src/reader.js';
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

/** The text settings. */
const TEXTS = ['serviceUrl', 'deviceKey', 'token', 'modbusBus', 'caCert', 'sntp', 'logLevel'] as const;

/** The numeric settings (all integers): [min, max]. Given as strings (command line, preferences) too. */
const NUMBERS = {
  gnssPort: [0, Infinity],
  gnssBaud: [300, Infinity],
  gnssRx: [0, 63],
  gnssTx: [0, 63],
  modbusPort: [0, Infinity],
  modbusRx: [0, 63],
  modbusTx: [0, 63],
  modbusDirPin: [0, 63],
  pwmHz: [1, Infinity],
  batchBytes: [256, 65536],
  outboxBytes: [1024, Infinity],
} as const;

const LEVELS: readonly LogLevel[] = ['debug', 'info', 'warn', 'error'];

/** Merges `manifest` config with `override(name)` values and validates the result. */
export function readBoardConfig(manifest: unknown, override: (name: string) => unknown): BoardConfig {
  const base: WireObject = isObject(manifest) ? manifest : {};
  const merged: Record<string, unknown> = {};
  for (const name of [...TEXTS, ...Object.keys(NUMBERS)]) {
    const value = override(name) ?? base[name];
    const numeric = name in NUMBERS && typeof value === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(value);
    if (value !== undefined && value !== '') merged[name] = numeric ? Number(value) : value;
  }
  function num(name: keyof typeof NUMBERS): number | undefined;
  function num(name: keyof typeof NUMBERS, fallback: number): number;
  function num(name: keyof typeof NUMBERS, fallback?: number): number | undefined {
    const [min, max] = NUMBERS[name];
    return optNumber(merged, name, { integer: true, min, max }) ?? fallback;
  }
  function text(name: (typeof TEXTS)[number], pattern: RegExp, expected: string): string | undefined {
    const value = optString(merged, name);
    if (value !== undefined && !pattern.test(value))
      throw new AgentError('config.invalid', `${name}: expected ${expected}, got "${value}"`);
    return value;
  }
  try {
    const serviceUrl = text('serviceUrl', /^https?:\/\/[^/\s]+(\/\S*)?$/, 'http://host[:port] or https://...');
    const caCert = text('caCert', /^[\w.-]+\.der$/, 'the name of a DER resource such as dds-ca.der');
    const gnssPort = num('gnssPort');
    const modbusPort = num('modbusPort');
    return {
      serviceUrl: (serviceUrl ?? reqString(merged, 'serviceUrl')).replace(/\/+$/, ''),
      caCert,
      deviceKey: reqString(merged, 'deviceKey'),
      token: reqString(merged, 'token'),
      gnss:
        gnssPort === undefined
          ? undefined
          : {
              port: gnssPort,
              baudRate: num('gnssBaud', 9600),
              pins: { receive: num('gnssRx', 16), transmit: num('gnssTx', 17) },
            },
      modbus:
        modbusPort === undefined
          ? undefined
          : {
              port: modbusPort,
              pins: { receive: num('modbusRx', 26), transmit: num('modbusTx', 27) },
              directionPin: num('modbusDirPin'),
            },
      modbusBus: optString(merged, 'modbusBus') ?? 'rs485',
      sntpHost: optString(merged, 'sntp'),
      logLevel: optEnum(merged, 'logLevel', LEVELS) ?? 'info',
      pwmHz: num('pwmHz', 1000),
      batchBytes: num('batchBytes', 4096),
      outboxBytes: num('outboxBytes', 12288),
    };
  } catch (e) {
    if (e instanceof AgentError && e.code === 'wire.invalid') {
      throw new AgentError('config.invalid', `board configuration: ${e.message}`, { cause: e });
    }
    throw e;
  }
}
