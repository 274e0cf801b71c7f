/**
 * Setup mode (decisions 11), a feature a composition root links (main-setup.ts):
 * the board prints a one-time setup code (`setup code: <code>`, from the
 * platform's random source, random.ts), opens a WPA2 access point named after
 * the device on a board with Wi-Fi (its password printed beside the code), and
 * serves the setup routes (src/setup/handler.ts) on `setupPort` (80 by default;
 * a number or its decimal string, as mcconfig passes it). Settings that work
 * are stored as `config` preferences, the server closes, the station joins the
 * stored network (Wi-Fi boards), and the agent starts in place: no restart, and
 * every later boot starts the agent directly. `factoryReset` is the button's
 * long hold (boot.ts).
 */
import Digital from 'embedded:io/digital';
import config from 'mc/config';
import Preference from 'preference';
import * as wifi from 'dds/wifi';
import { messageOf } from '../../src/errors.js';
import { RedactingLogger } from '../../src/log/redact.js';
import type { Clock, LogLevel } from '../../src/ports.js';
import { setupCode } from '../../src/setup/gate.js';
import { pemToDer } from '../../src/setup/pem.js';
import { SetupHandler } from '../../src/setup/handler.js';
import { SettingNames, type SettingName } from '../../src/setup/settings.js';
import { CONFIG_DOMAIN } from './config.js';
import { moddableHttp } from './http.js';
import { TraceLogger } from './logger.js';
import { randomBytes } from './random.js';
import { secureOptions } from './secure.js';
import { startSetupServer } from './setup-server.js';

/** Starts setup mode; `startAgent` boots the agent once settings are stored. */
export type SetupMode = (why: string, clock: Clock, startAgent: () => void) => void;

/** What boot.ts calls of the feature (main-setup.ts links it). */
export interface SetupFeature {
  start: SetupMode;
  /**
   * The button at boot: true when `setupPin` is configured and held (low: a
   * button to ground with the pull-up, as an ESP32 board's BOOT button); setup
   * mode then starts, and a hold of `FactoryResetMs` clears the board first.
   */
  held(clock: Clock, startAgent: () => void): boolean;
  /** Throws `board config: ssid: ...` on a board with Wi-Fi and no network settings. */
  checkNetwork(): void;
  /** Decodes a provisioned PEM `caCert` (secure.ts). */
  pemToDer(pem: string): Uint8Array;
  /** Joins the provisioned network where the image's setup/network did not (its `ssid` is compiled in), then `then`. */
  network(then: () => void): void;
}

/** How long the button must stay held at boot for a factory reset. */
export const FactoryResetMs = 5_000;

const setting = (name: string): unknown =>
  Preference.get(CONFIG_DOMAIN, name) ?? (config as Record<string, unknown>)[name];

/** `setupPort`: a number or its decimal string, 1..65535; 80 when absent. */
export function setupPort(value: unknown): number {
  const port = typeof value === 'string' && /^\d+$/.test(value.trim()) ? Number(value) : (value ?? 80);
  if (typeof port !== 'number' || !Number.isInteger(port) || port < 1 || port > 65535)
    throw new Error(`board config: setupPort: expected integer 1..65535, got ${JSON.stringify(value)}`);
  return port;
}

export const setupMode: SetupMode = (why, clock, startAgent) => {
  const level = setting('logLevel');
  const logger = new RedactingLogger(
    new TraceLogger(
      typeof level === 'string' && /^(debug|info|warn|error)$/.test(level) ? (level as LogLevel) : 'info',
    ),
  );
  let port: number;
  try {
    port = setupPort(setting('setupPort'));
  } catch (e) {
    trace(`setup: cannot start: ${messageOf(e)}\n`);
    return;
  }
  const code = setupCode(randomBytes);
  const name = `dds-${String(setting('deviceKey') ?? 'board').slice(0, 24)}`;
  trace(`setup: ${why}; setup mode on port ${port}\n`);
  trace(`setup code: ${code}\n`);
  if (wifi.radio) {
    const password = setupCode(randomBytes, 12);
    wifi.accessPoint(name, password);
    trace(`setup: access point "${name}" password: ${password}\n`);
  }
  const handler = new SetupHandler({
    code,
    clock,
    logger,
    trial: {
      http: (settings) => moddableHttp(clock, 20_000, secureOptions(settings.caCert, pemToDer)),
      ...(wifi.radio ? { join: (ssid: string, password: string | undefined) => wifi.join(ssid, password, true) } : {}),
    },
    stored: (key: SettingName) => Preference.get(CONFIG_DOMAIN, key),
    save(settings) {
      for (const key of SettingNames) {
        const value = settings[key];
        if (value === undefined) Preference.delete(CONFIG_DOMAIN, key);
        else Preference.set(CONFIG_DOMAIN, key, value);
      }
    },
    onProvisioned(settings) {
      stop();
      const start = (): void => {
        trace('setup: provisioned; starting the agent\n');
        startAgent();
      };
      if (!wifi.radio || settings.ssid === undefined) return start();
      wifi.join(settings.ssid, settings.password).then(start, (e: unknown) => {
        trace(`setup: cannot join ${settings.ssid}: ${messageOf(e)}\n`);
      });
    },
  });
  let stop = (): void => undefined;
  try {
    stop = startSetupServer(port, handler, clock, logger);
  } catch (e) {
    // A port in use or no network: said once; the board stays as it is (no agent without settings).
    trace(`setup: cannot listen on port ${port}: ${messageOf(e)}\n`);
  }
};

/** The button at boot (SetupFeature.held). */
function held(clock: Clock, startAgent: () => void): boolean {
  const value = setting('setupPin');
  if (value === undefined || value === null || value === '') return false;
  const pin = Number(value);
  let button: Digital;
  try {
    button = new Digital({ pin, mode: Digital.InputPullUp });
  } catch (e) {
    trace(`setup: setupPin ${String(value)}: ${messageOf(e)}\n`);
    return false;
  }
  if (button.read() !== 0) {
    button.close();
    return false;
  }
  // Held: setup mode now; still held after FactoryResetMs (checked every 100 ms), a factory reset.
  const startedMs = clock.monotonicMs();
  const poll = (): void => {
    if (button.read() !== 0) return button.close();
    if (clock.monotonicMs() - startedMs < FactoryResetMs) return void clock.setTimer(poll, 100);
    button.close();
    factoryReset();
  };
  clock.setTimer(poll, 100);
  setupMode('button held at boot', clock, startAgent);
  return true;
}

/** The feature, as main-setup.ts links it. */
export const setupFeature: SetupFeature = {
  start: setupMode,
  held,
  pemToDer,
  checkNetwork() {
    if (wifi.radio && typeof setting('ssid') !== 'string')
      throw new Error('board config: ssid: expected the Wi-Fi network, got none');
  },
  network(then) {
    const ssid = Preference.get(CONFIG_DOMAIN, 'ssid');
    if (!wifi.radio || typeof ssid !== 'string' || ssid === (config as Record<string, unknown>).ssid) return then();
    const password = Preference.get(CONFIG_DOMAIN, 'password');
    wifi.join(ssid, typeof password === 'string' ? password : undefined).then(then, (e: unknown) => {
      trace(`agent: cannot join ${ssid}: ${messageOf(e)}; hold the setup button at boot to change it\n`);
    });
  },
};

/** The long hold: clears the provisioned settings, the cached configuration and the outbox (domain `agent`). */
export function factoryReset(): void {
  for (const key of SettingNames) Preference.delete(CONFIG_DOMAIN, key);
  for (const key of Preference.keys('agent')) Preference.delete('agent', key);
  trace('setup: factory reset: settings, cached configuration and outbox cleared\n');
}
