/**
 * Starts the agent core on the Moddable ports: pin channels through the board's
 * ECMA-419 pins, custom values through the application API, the features the
 * composition root links (feature.ts: the GNSS receiver and the Modbus RS-485
 * line on the UARTs the board configuration names), and the hub client (desired
 * values, properties) over the `websocket` module.
 * CAN channels have no provider here: ECMA-419 has no CAN class and the SDK no
 * TWAI module, so they report -EOPNOTSUPP (decisions 4), and the agent says so.
 */
import { Agent } from '../../src/agent/agent.js';
import type { ChannelDriverProvider } from '../../src/agent/driver.js';
import { CustomChannels } from '../../src/custom/provider.js';
import { toAgentError } from '../../src/errors.js';
import { RedactingLogger } from '../../src/log/redact.js';
import { PinChannelProvider } from '../../src/pins/provider.js';
import { startAgentHub } from '../../src/signalr/agent-hub.js';
import type { BoardConfig } from './config.js';
import { missingFeatures, type LinkedFeatures } from './feature.js';
import type { ModdablePorts } from './ports.js';

export interface RunningAgent {
  agent: Agent;
  /** Publish custom channel values from application code. */
  custom: CustomChannels;
}

function providers(
  board: BoardConfig,
  ports: ModdablePorts,
  custom: CustomChannels,
  features: LinkedFeatures | undefined,
): ChannelDriverProvider[] {
  const list: ChannelDriverProvider[] = [new PinChannelProvider(ports.pins), custom];
  if (features !== undefined) {
    const { clock, logger } = ports;
    const featurePorts = { serial: features.serial(board, clock), clock, logger };
    for (const feature of features.list) {
      const provider = feature.provider(board, featurePorts);
      if (provider !== undefined) list.push(provider);
    }
  }
  for (const name of missingFeatures(board, features?.list ?? []))
    ports.logger.log('warn', 'configured feature not in this firmware; its channels report -EOPNOTSUPP', {
      feature: name,
    });
  return list;
}

export function startAgent(board: BoardConfig, ports: ModdablePorts, features?: LinkedFeatures): RunningAgent {
  const logger = new RedactingLogger(ports.logger);
  logger.addSecret(board.token);
  const custom = new CustomChannels(logger);
  const agent = new Agent({
    clock: ports.clock,
    http: ports.http,
    store: ports.store,
    logger,
    service: { baseUrl: board.serviceUrl, device: board.deviceKey, token: board.token },
    providers: providers(board, { ...ports, logger }, custom, features),
    // Bounds that fit the preference store (store.ts): a batch per value, the outbox in NVS.
    batch: { maxBytes: board.batchBytes },
    outbox: { maxBytes: board.outboxBytes },
    onReport: (key, sample) =>
      logger.log('debug', 'reported', sample.ok ? { key, value: String(sample.value) } : { key, errno: sample.errno }),
  });
  agent
    .start()
    .then(() => {
      // The hub glue, shared with the Node target (src/signalr/agent-hub.ts).
      startAgentHub({
        agent,
        baseUrl: board.serviceUrl,
        token: board.token,
        http: ports.http,
        sockets: ports.webSockets,
        clock: ports.clock,
        logger,
      });
    })
    .catch((e: unknown) => logger.log('error', 'agent failed to start', { reason: toAgentError(e).message }));
  return { agent, custom };
}
