/**
 * The firmware's boot, shared by its composition roots (main.ts, main-pins.ts,
 * main-ota.ts; main-setup.ts through setup-boot.ts),
 * and the one place where Moddable modules meet the core's ports (STYLE.md
 * practice 3): reads the board configuration (manifest `config`, overridden by
 * `config` preferences), builds the ports, sets the time, and starts the agent
 * core: pin channels through the board's ECMA-419 pins, custom channels that
 * take desired values (no application code publishes on a board), the features
 * the root links (feature.ts: the GNSS receiver and the Modbus RS-485 line on the
 * UARTs the board configuration names), and the hub client (desired values,
 * properties) over `websocket`. CAN channels have no provider here: ECMA-419 has
 * no CAN class and the SDK no TWAI module, so they report -EOPNOTSUPP
 * (decisions 4), and the agent says so.
 */
import config from 'mc/config';
import Preference from 'preference';
import { AgentCore } from '../../src/agent/agent-core.js';
import type { ChannelDriverProvider } from '../../src/agent/driver.js';
import { CustomChannelDrivers } from '../../src/custom/drivers.js';
import { info, logFailure, messageOf } from '../../src/errors.js';
import { RedactingLogger } from '../../src/log/redact.js';
import { PinChannelProvider } from '../../src/pins/provider.js';
import type { HttpTransport } from '../../src/ports.js';
import { startAgentHub } from '../../src/signalr/agent-hub.js';
import { EarliestValidUnixMs } from '../../src/wire.js';
import { ModdableClock } from './clock.js';
import { CONFIG_DOMAIN, readBoardConfig, type BoardConfig } from './config.js';
import { startFeatures, type LinkedFeatures, type UpdatesLink } from './feature.js';
import { moddableHttp } from './http.js';
import { boardIo } from './io.js';
import { TraceLogger } from './logger.js';
import { moddablePins } from './pins.js';
import { secureOptions } from './secure.js';
import { preferenceStore } from './store.js';
import { syncTime } from './time.js';
import { moddableWebSockets } from './websocket.js';

/** Boots the firmware with the features its root links (main.ts, main-pins.ts, main-ota.ts). */
export function boot(features?: LinkedFeatures): void {
  let board: BoardConfig;
  try {
    board = readBoard();
  } catch (e) {
    return cannotStart(e);
  }
  run(board, new ModdableClock(), features);
}

/** The board configuration (manifest `config`, `config` preferences); throws `config.invalid` naming a setting. */
export const readBoard = (): BoardConfig => readBoardConfig(config, (name) => Preference.get(CONFIG_DOMAIN, name));

/** The console line of a board that cannot start: what is wrong and how to set it. */
export function cannotStart(e: unknown): void {
  // The token is never in the image on a board: it (and any other setting) is provisioned into NVS.
  trace(`agent: cannot start: ${messageOf(e)}; set it with Preference.set("config", name, value)\n`);
}

/**
 * Starts the agent on `board`: its ports, the linked features and the hub.
 * `pemToDer` decodes a provisioned PEM `caCert` (setup-boot.ts links it).
 */
export function run(
  board: BoardConfig,
  clock: ModdableClock,
  features?: LinkedFeatures,
  pemToDer?: (pem: string) => Uint8Array,
): void {
  const { serviceUrl: baseUrl, token } = board;
  const logger = new RedactingLogger(new TraceLogger(board.logLevel));
  // The agent's records (configuration cache, outbox) in NVS domain `agent`.
  const store = preferenceStore(Preference);
  // The `secure` dictionary of every SecureSocket (secure.ts); a linked feature's own settings.
  let secure: Record<string, unknown>;
  let transport: HttpTransport;
  let updates: UpdatesLink | undefined;
  try {
    secure = secureOptions(board.caCert, pemToDer);
    transport = moddableHttp(clock, 30_000, secure);
    updates = features?.updates?.({ clock, http: transport, store, logger });
  } catch (e) {
    return cannotStart(e);
  }
  // One transport: with updates, the agent's is it wrapped (the trial watches the batches delivered).
  const http = updates?.http ?? transport;
  logger.addSecret(token);
  info(logger, 'agent booting', { service: baseUrl, device: board.deviceKey });
  // setup/network already asked SNTP (config `sntp`) on a board; ask again until it answers.
  if (board.sntp !== undefined && Date.now() < EarliestValidUnixMs) syncTime(board.sntp, clock, logger);
  // Custom channels take desired values only: this firmware has no application code to publish them.
  const providers: ChannelDriverProvider[] = [
    new PinChannelProvider(moddablePins(boardIo(), board.pwmHz)),
    new CustomChannelDrivers(),
    ...startFeatures(board, features, clock, logger),
  ];
  const agent = new AgentCore({
    clock,
    http,
    store,
    logger,
    service: { baseUrl, device: board.deviceKey, token },
    providers,
    // Bounds that fit the preference store (store.ts): a batch per value, the outbox in NVS.
    batch: { maxBytes: board.batchBytes },
    outbox: { maxBytes: board.outboxBytes },
  });
  agent
    .start()
    .then(() => {
      // The hub glue, shared with the Node target (src/signalr/agent-hub.ts).
      const sockets = moddableWebSockets(secure);
      const { hub } = startAgentHub({
        agent,
        baseUrl,
        token,
        http,
        sockets,
        clock,
        logger,
        properties: updates?.offer,
      });
      updates?.start(agent.client, hub);
    })
    .catch((e: unknown) => logFailure(logger, 'error', 'agent: start failed', e));
}
