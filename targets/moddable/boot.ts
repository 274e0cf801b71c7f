/**
 * The firmware's boot, shared by its composition roots (main.ts, main-pins.ts):
 * reads the board configuration (manifest `config`, overridden by `config`
 * preferences), builds the Moddable ports, sets the time, and starts the agent
 * core: pin channels through the board's ECMA-419 pins, custom channels that
 * take desired values (no application code publishes on a board), the features the root links (feature.ts: the GNSS
 * receiver and the Modbus RS-485 line on the UARTs the board configuration
 * names), and the hub client (desired values, properties) over `websocket`.
 * CAN channels have no provider here: ECMA-419 has no CAN class and the SDK no
 * TWAI module, so they report -EOPNOTSUPP (decisions 4), and the agent says so.
 */
import config from 'mc/config';
import Preference from 'preference';
import { Agent } from '../../src/agent/agent.js';
import type { ChannelDriverProvider } from '../../src/agent/driver.js';
import { CustomChannelDrivers } from '../../src/custom/drivers.js';
import { toAgentError } from '../../src/errors.js';
import { RedactingLogger } from '../../src/log/redact.js';
import { PinChannelProvider } from '../../src/pins/provider.js';
import { startAgentHub } from '../../src/signalr/agent-hub.js';
import { EarliestValidUnixMs } from '../../src/wire.js';
import { CONFIG_DOMAIN, readBoardConfig, type BoardConfig } from './config.js';
import { missingFeatures, type LinkedFeatures } from './feature.js';
import { buildPorts } from './ports.js';
import { syncTime } from './time.js';

export function boot(features?: LinkedFeatures): void {
  let board: BoardConfig;
  try {
    board = readBoardConfig(config, (name) => Preference.get(CONFIG_DOMAIN, name));
  } catch (e) {
    // The token is never in the image on a board: it (and any other setting) is provisioned into NVS.
    trace(`agent: cannot start: ${toAgentError(e).message}; set it with Preference.set("config", name, value)\n`);
    return;
  }
  const ports = buildPorts(board);
  const { clock, http } = ports;
  const logger = new RedactingLogger(ports.logger);
  logger.addSecret(board.token);
  logger.log('info', 'agent booting', { service: board.serviceUrl, device: board.deviceKey });
  // setup/network already asked SNTP (config `sntp`) on a board; ask again until it answers.
  if (board.sntpHost !== undefined && Date.now() < EarliestValidUnixMs) syncTime(board.sntpHost, clock, logger);
  // Custom channels take desired values only: this firmware has no application code to publish them.
  const providers: ChannelDriverProvider[] = [new PinChannelProvider(ports.pins), new CustomChannelDrivers(logger)];
  if (features !== undefined) {
    const featurePorts = { serial: features.serial(board, clock), clock, logger };
    for (const feature of features.list) {
      const provider = feature.provider(board, featurePorts);
      if (provider !== undefined) providers.push(provider);
    }
  }
  for (const feature of missingFeatures(board, features?.list ?? []))
    logger.log('warn', 'boot: feature not in this firmware', { feature });
  const agent = new Agent({
    clock,
    http,
    store: ports.store,
    logger,
    service: { baseUrl: board.serviceUrl, device: board.deviceKey, token: board.token },
    providers,
    // Bounds that fit the preference store (store.ts): a batch per value, the outbox in NVS.
    batch: { maxBytes: board.batchBytes },
    outbox: { maxBytes: board.outboxBytes },
  });
  agent
    .start()
    .then(() => {
      // The hub glue, shared with the Node target (src/signalr/agent-hub.ts).
      startAgentHub({
        agent,
        baseUrl: board.serviceUrl,
        token: board.token,
        http,
        sockets: ports.webSockets,
        clock,
        logger,
      });
    })
    .catch((e: unknown) => logger.log('error', 'agent: start failed', { reason: toAgentError(e).message }));
}
