/**
 * The board configuration: the manifest's `config` (compiled into the firmware,
 * settable on the mcconfig command line as `name=value`), each entry overridable
 * at run time by a preference of the same name in domain `config` (names are at
 * most 15 characters: the ESP32 NVS limit). One flat table of settings, read by
 * one loop; a bad entry stops the boot with `config.invalid` naming it:
 * `board config: gnssRx: expected integer 0..63, got "x"`.
 */
import { AgentError } from '../../src/errors.js';
import { isObject } from '../../src/reader.js';
import type { LogLevel } from '../../src/ports.js';

/** Domain of the override preferences. */
export const CONFIG_DOMAIN = 'config';

/** UART pins of one serial port. */
export interface SerialPins {
  receive: number;
  transmit: number;
}

/** Every setting under its manifest (and preference) name; `undefined` where absent and without a default. */
export interface BoardConfig {
  /** Device Data Service base URL, without a trailing slash. */
  serviceUrl: string;
  /**
   * Name of a DER CA certificate among the firmware's resources (e.g.
   * `dds-ca.der`) that https/wss servers must chain to (docs/tls.md); without it
   * the SDK's certificate store (`ca*.der` resources) is used.
   */
  caCert: string | undefined;
  deviceKey: string;
  token: string;
  /** SNTP server. */
  sntp: string | undefined;
  logLevel: LogLevel;
  /** GNSS receiver UART (none: no GNSS), its baud rate and pins. */
  gnssPort: number | undefined;
  gnssBaud: number;
  gnssRx: number;
  gnssTx: number;
  /** Key of the Modbus bus (channels/list `buses`) wired to the RS-485 UART. Default `rs485`. */
  modbusBus: string;
  /** Modbus RS-485 UART (none: no Modbus), its pins and driver-enable (direction) pin. */
  modbusPort: number | undefined;
  modbusRx: number;
  modbusTx: number;
  modbusDirPin: number | undefined;
  /** PWM frequency of analog outputs, hertz. */
  pwmHz: number;
  /** Largest batch (JSON bytes), so that one outbox entry fits one preference value. */
  batchBytes: number;
  /** Outbox bound in bytes: what the ESP32's default 24 KiB NVS partition can hold. */
  outboxBytes: number;
}

/**
 * A text setting: [pattern, what it means, default]; a number setting: [min,
 * max, default]. The default `null` marks a required setting.
 */
export type Setting = readonly [RegExp, string, (string | null)?] | readonly [number, number, number?];

/** Any non-blank text. */
const TEXT = [/\S/, 'text'] as const;

/** Any non-blank text, required. */
const REQUIRED_TEXT = [/\S/, 'text', null] as const;

/** Every setting. Without a default a setting is absent (`undefined`). */
const SETTINGS: Readonly<Record<keyof BoardConfig, Setting>> = {
  serviceUrl: [/^https?:\/\/[^/\s]+(\/\S*)?$/, 'http(s)://host[:port][/path]', null],
  caCert: [/^([\w.-]+\.der|\s*-----BEGIN CERTIFICATE-----[\s\S]+)$/, 'a DER resource name or a PEM certificate'],
  deviceKey: REQUIRED_TEXT,
  token: REQUIRED_TEXT,
  sntp: TEXT,
  logLevel: [/^(debug|info|warn|error)$/, 'debug|info|warn|error', 'info'],
  gnssPort: [0, 99],
  gnssBaud: [300, 8e6, 9600],
  gnssRx: [0, 63, 16],
  gnssTx: [0, 63, 17],
  modbusBus: [/\S/, 'text', 'rs485'],
  modbusPort: [0, 99],
  modbusRx: [0, 63, 26],
  modbusTx: [0, 63, 27],
  modbusDirPin: [0, 63],
  pwmHz: [1, 1e8, 1000],
  batchBytes: [256, 65536, 2048],
  outboxBytes: [1024, 1e9, 12288],
};

/** Merges `manifest` config with `override(name)` values and validates the result. */
export function readBoardConfig(manifest: unknown, override: (name: string) => unknown): BoardConfig {
  const board = readSettings<BoardConfig>(SETTINGS, manifest, override);
  board.serviceUrl = board.serviceUrl.replace(/\/+$/, '');
  return board;
}

/**
 * Reads the settings of `table` (the board's, or a feature's own: feature-ota.ts)
 * from `manifest` config and `override(name)` values, validated.
 */
export function readSettings<T>(
  table: Readonly<Record<keyof T, Setting>>,
  manifest: unknown,
  override: (name: string) => unknown,
): T {
  const base = isObject(manifest) ? manifest : {};
  const board: Record<string, unknown> = {};
  for (const name in table) {
    const [a, b, fallback] = table[name];
    let value = override(name) ?? base[name];
    if (value === '' || value == null) value = fallback;
    else if (typeof a === 'number') {
      // Numbers come as strings from the command line and from preferences.
      const n = typeof value === 'string' && /^\s*-?\d+\s*$/.test(value) ? Number(value) : value;
      // Number.isInteger is false for anything but a number.
      if (!Number.isInteger(n) || (n as number) < a || (n as number) > (b as number))
        fail(name, `integer ${a}..${b}`, value);
      value = n;
    } else if (typeof value !== 'string' || !a.test(value)) fail(name, b as string, value);
    if (value === null) fail(name, 'a value', undefined);
    board[name] = value;
  }
  return board as T;
}

function fail(name: string, expected: string, value: unknown): never {
  // A mistyped token is not echoed to the console.
  const got = name === 'token' ? typeof value : JSON.stringify(value)?.slice(0, 40);
  throw new AgentError('config.invalid', `board config: ${name}: expected ${expected}, got ${got}`);
}
