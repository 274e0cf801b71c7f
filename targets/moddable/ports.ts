/**
 * Builds every core port on Moddable from the board configuration: the one
 * place where Moddable modules meet the core's interfaces (STYLE.md practice 3).
 */
import Preference from 'preference';
import type { Clock, HttpTransport, KeyValueStore, Logger, Pins, Serial, WebSocketFactory } from '../../src/ports.js';
import { ModdableClock } from './clock.js';
import type { BoardConfig } from './config.js';
import { ModdableHttp } from './http.js';
import { boardIo, type SerialPins } from './io.js';
import { TraceLogger } from './logger.js';
import { ModdablePins } from './pins.js';
import { ModdableSerial } from './serial.js';
import { PreferenceStore, type PreferenceApi } from './store.js';
import { ModdableWebSockets } from './websocket.js';

export interface ModdablePorts {
  clock: ModdableClock & Clock;
  logger: Logger;
  pins: Pins;
  serial: Serial;
  http: HttpTransport;
  webSockets: WebSocketFactory;
  store: KeyValueStore;
}

/** NVS domain of the agent's own records (configuration cache, outbox). */
export const STORE_DOMAIN = 'agent';

/**
 * `preference` with values stored as blobs: NVS strings stop near 4000 bytes,
 * and the cached channel configuration alone is larger (5 KB for the demo).
 */
const blobPreference: PreferenceApi = {
  set: (domain, key, value) => Preference.set(domain, key, ArrayBuffer.fromString(value)),
  get(domain, key) {
    const value = Preference.get(domain, key);
    return value instanceof ArrayBuffer ? String.fromArrayBuffer(value) : value;
  },
  delete: (domain, key) => Preference.delete(domain, key),
  keys: (domain) => Preference.keys(domain),
};

export function buildPorts(board: BoardConfig): ModdablePorts {
  const clock = new ModdableClock();
  const io = boardIo();
  const serialPins: Record<string, SerialPins> = {};
  if (board.gnss !== undefined) serialPins[String(board.gnss.port)] = board.gnss.pins;
  if (board.modbus !== undefined) serialPins[String(board.modbus.port)] = board.modbus.pins;
  return {
    clock,
    logger: new TraceLogger(board.logLevel),
    pins: new ModdablePins(io, board.pwmHz),
    serial: new ModdableSerial(io, clock, serialPins),
    http: new ModdableHttp(clock),
    webSockets: new ModdableWebSockets(),
    store: new PreferenceStore(blobPreference, STORE_DOMAIN),
  };
}
