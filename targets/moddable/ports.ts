/**
 * Builds every core port on Moddable from the board configuration: the one
 * place where Moddable modules meet the core's interfaces (STYLE.md practice 3).
 */
import Preference from 'preference';
import Resource from 'Resource';
import type { Clock, HttpTransport, KeyValueStore, Logger, Pins, WebSocketFactory } from '../../src/ports.js';
import { ModdableClock } from './clock.js';
import type { BoardConfig } from './config.js';
import { ModdableHttp } from './http.js';
import { boardIo } from './io.js';
import { TraceLogger } from './logger.js';
import { ModdablePins } from './pins.js';
import { PreferenceStore, type PreferenceApi } from './store.js';
import { ModdableWebSockets } from './websocket.js';

export interface ModdablePorts {
  clock: ModdableClock & Clock;
  logger: Logger;
  pins: Pins;
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

/**
 * The `secure` dictionary of every SecureSocket (docs/tls.md): TLS 1.2 at least, and
 * the board's CA certificate (a DER resource named by `caCert`) when given;
 * otherwise the SDK's certificate store (the manifest's `ca*.der` resources).
 */
export function secureOptions(board: BoardConfig): Record<string, unknown> {
  return board.caCert === undefined
    ? { protocolVersion: 0x303 }
    : { protocolVersion: 0x303, certificate: new Resource(board.caCert) };
}

export function buildPorts(board: BoardConfig): ModdablePorts {
  const clock = new ModdableClock();
  const secure = secureOptions(board);
  return {
    clock,
    logger: new TraceLogger(board.logLevel),
    pins: new ModdablePins(boardIo(), board.pwmHz),
    http: new ModdableHttp(clock, 30_000, secure),
    webSockets: new ModdableWebSockets(undefined, secure),
    store: new PreferenceStore(blobPreference, STORE_DOMAIN),
  };
}
