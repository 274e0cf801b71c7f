/**
 * Starts the agent core on the Moddable ports: pin channels through the board's
 * ECMA-419 pins, custom values through the application API. GNSS, Modbus/CAN
 * and the hub client join here as their providers land (see README, moddable).
 */
import { Agent } from '../../src/agent/agent.js';
import { CustomChannels } from '../../src/custom/provider.js';
import { toAgentError } from '../../src/errors.js';
import { PinChannelProvider } from '../../src/pins/provider.js';
import type { BoardConfig } from './config.js';
import type { ModdablePorts } from './ports.js';

export interface RunningAgent {
  agent: Agent;
  /** Publish custom channel values from application code. */
  custom: CustomChannels;
}

export function startAgent(board: BoardConfig, ports: ModdablePorts): RunningAgent {
  const custom = new CustomChannels(ports.logger);
  const agent = new Agent({
    clock: ports.clock,
    http: ports.http,
    store: ports.store,
    logger: ports.logger,
    service: { baseUrl: board.serviceUrl, device: board.deviceKey, token: board.token },
    providers: [new PinChannelProvider(ports.pins), custom],
    // Bounds that fit the preference store (store.ts): a batch per value, the outbox in NVS.
    batch: { maxBytes: board.batchBytes },
    outbox: { maxBytes: board.outboxBytes },
    onReport: (key, sample) =>
      ports.logger.log(
        'debug',
        'reported',
        sample.ok ? { key, value: String(sample.value) } : { key, errno: sample.errno },
      ),
  });
  agent
    .start()
    .catch((e: unknown) => ports.logger.log('error', 'agent failed to start', { reason: toAgentError(e).message }));
  return { agent, custom };
}
