/**
 * The board configuration: the manifest's `config` (compiled into the firmware,
 * settable on the mcconfig command line as `name=value`), each entry overridable
 * at run time by a preference of the same name in domain `config` (names are at
 * most 15 characters: the ESP32 NVS limit). Validated with the core's field
 * readers; a bad entry stops the boot with a clear message.
 */
import { AgentError } from '../../src/errors.js';
import { isObject, optNumber, optString, reqString, type WireObject } from '../../src/config/fields.js';
import type { LogLevel } from '../../src/ports.js';

/** Domain of the override preferences. */
export const CONFIG_DOMAIN = 'config';

/** Every configuration name (manifest `config` key and preference key). */
export const CONFIG_NAMES = [
  'serviceUrl',
  'deviceKey',
  'token',
  'gnssPort',
  'gnssBaud',
  'gnssRx',
  'gnssTx',
  'modbusPort',
  'modbusRx',
  'modbusTx',
  'modbusDirPin',
  'sntp',
  'logLevel',
  'pwmHz',
  'batchBytes',
  'outboxBytes',
  'modbusBus',
  'caCert',
] as const;

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

const PIN = { integer: true, min: 0, max: 63 } as const;
const LEVELS: readonly LogLevel[] = ['debug', 'info', 'warn', 'error'];

/** Numbers given as strings (command line, preferences) become numbers. */
function normalize(value: unknown): unknown {
  return typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value.trim()) ? Number(value) : value;
}

/** Merges `manifest` config with `override(name)` values and validates the result. */
export function readBoardConfig(manifest: unknown, override: (name: string) => unknown): BoardConfig {
  const base: WireObject = isObject(manifest) ? manifest : {};
  const merged: Record<string, unknown> = {};
  for (const name of CONFIG_NAMES) {
    const value = override(name) ?? base[name];
    if (value !== undefined && value !== '')
      merged[name] = ['token', 'deviceKey', 'serviceUrl', 'modbusBus', 'caCert'].includes(name)
        ? value
        : normalize(value);
  }
  try {
    const gnssPort = optNumber(merged, 'gnssPort', { integer: true, min: 0 });
    const modbusPort = optNumber(merged, 'modbusPort', { integer: true, min: 0 });
    const logLevel = optString(merged, 'logLevel') ?? 'info';
    if (!(LEVELS as readonly string[]).includes(logLevel))
      throw new AgentError('config.invalid', `logLevel: ${logLevel}`);
    const serviceUrl = reqString(merged, 'serviceUrl').replace(/\/+$/, '');
    if (!/^https?:\/\/[^/\s]+(\/\S*)?$/.test(serviceUrl))
      throw new AgentError(
        'config.invalid',
        `serviceUrl: expected http://host[:port] or https://..., got "${serviceUrl}"`,
      );
    const caCert = optString(merged, 'caCert');
    if (caCert !== undefined && !/^[\w.-]+\.der$/.test(caCert))
      throw new AgentError(
        'config.invalid',
        `caCert: expected the name of a DER resource such as dds-ca.der, got "${caCert}"`,
      );
    return {
      serviceUrl,
      caCert,
      deviceKey: reqString(merged, 'deviceKey'),
      token: reqString(merged, 'token'),
      gnss:
        gnssPort === undefined
          ? undefined
          : {
              port: gnssPort,
              baudRate: optNumber(merged, 'gnssBaud', { integer: true, min: 300 }) ?? 9600,
              pins: {
                receive: optNumber(merged, 'gnssRx', PIN) ?? 16,
                transmit: optNumber(merged, 'gnssTx', PIN) ?? 17,
              },
            },
      modbus:
        modbusPort === undefined
          ? undefined
          : {
              port: modbusPort,
              pins: {
                receive: optNumber(merged, 'modbusRx', PIN) ?? 26,
                transmit: optNumber(merged, 'modbusTx', PIN) ?? 27,
              },
              directionPin: optNumber(merged, 'modbusDirPin', PIN),
            },
      modbusBus: optString(merged, 'modbusBus') ?? 'rs485',
      sntpHost: optString(merged, 'sntp'),
      logLevel: logLevel as LogLevel,
      pwmHz: optNumber(merged, 'pwmHz', { integer: true, min: 1 }) ?? 1000,
      batchBytes: optNumber(merged, 'batchBytes', { integer: true, min: 256, max: 65536 }) ?? 4096,
      outboxBytes: optNumber(merged, 'outboxBytes', { integer: true, min: 1024 }) ?? 12288,
    };
  } catch (e) {
    if (e instanceof AgentError && e.code === 'wire.invalid') {
      throw new AgentError('config.invalid', `board configuration: ${e.message}`, { cause: e });
    }
    throw e;
  }
}
