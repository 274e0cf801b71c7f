/**
 * Builds and starts one agent on the Node target from parsed options: the
 * object graph of the composition root, shared by `main.ts` (`npm run
 * agent`), `host-sim/start.ts` (`npm start`) and the end-to-end tests, which
 * inject a FakeClock or their own store.
 */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { Agent, type AgentOptions } from '../../src/agent/agent.js';
import { CustomChannels } from '../../src/custom/provider.js';
import { RedactingLogger } from '../../src/log/redact.js';
import { HubAgentLink } from '../../src/signalr/agent-link.js';
import { HubClient } from '../../src/signalr/hub-client.js';
import type { Clock, HttpTransport, KeyValueStore, Logger } from '../../src/ports.js';
import { SimulatedDevice } from '../../host-sim/device/device.js';
import { parseScenario, type Scenario } from '../../host-sim/device/scenario.js';
import { SimPins } from '../../host-sim/pins/sim-pins.js';
import { NodeClock } from './clock.js';
import { FetchHttp } from './http.js';
import { ConsoleLogger } from './logger.js';
import type { NodeAgentOptions } from './options.js';
import { buildProviders } from './providers.js';
import { FileStore, MemoryStore } from './store.js';
import { NodeWebSocketFactory } from './websocket.js';

export interface NodeAgentOverrides {
  clock?: Clock;
  http?: HttpTransport;
  store?: KeyValueStore;
  logger?: Logger;
  agent?: Partial<AgentOptions>;
  /** false: no hub connection (tests that drive desired values themselves). Default: per `--no-hub`. */
  hub?: boolean;
}

export interface NodeAgentRuntime {
  agent: Agent;
  pins: SimPins;
  custom: CustomChannels;
  device: SimulatedDevice;
  logger: Logger;
  /** The hub connection (desired values, properties), unless disabled. */
  hub: HubClient | undefined;
  stop(): void;
}

/** Reads the scenario file named by the options (JSON, or YAML by extension). */
export function loadScenario(path: string | undefined): { scenario?: Scenario; readFile: (p: string) => string } {
  if (path === undefined) return { readFile: (p) => readFileSync(p, 'utf8') };
  const base = dirname(resolve(path));
  const readFile = (p: string): string => readFileSync(resolve(base, p), 'utf8');
  const scenario = parseScenario(readFileSync(path, 'utf8'), /\.ya?ml$/i.test(path));
  return { scenario, readFile };
}

/** Builds the agent and starts it (resolves after the first configuration attempt). */
export async function startNodeAgent(
  options: NodeAgentOptions,
  overrides: NodeAgentOverrides = {},
): Promise<NodeAgentRuntime> {
  const clock = overrides.clock ?? new NodeClock();
  const logger = new RedactingLogger(overrides.logger ?? new ConsoleLogger(options.logLevel));
  logger.addSecret(options.token);
  const store = overrides.store ?? (options.store === undefined ? new MemoryStore() : new FileStore(options.store));
  const pins = new SimPins(clock);
  const custom = new CustomChannels(logger);
  const { scenario, readFile } = loadScenario(options.scenario);
  const device = new SimulatedDevice({
    clock,
    pins,
    custom,
    logger,
    readFile,
    ...(scenario === undefined ? {} : { scenario }),
  });
  const providers = buildProviders({ options, clock, logger, pins, custom, device });
  const http = overrides.http ?? new FetchHttp();
  const agent = new Agent({
    clock,
    http,
    store,
    logger,
    service: { baseUrl: options.service, device: options.device, token: options.token },
    providers,
    ...overrides.agent,
  });
  await agent.start();
  if (overrides.hub === false || options.values['no-hub'] !== undefined) {
    return { agent, pins, custom, device, logger, hub: undefined, stop: () => agent.stop() };
  }
  // The hub glue of issue 4: Notify -> applyDesired, properties, resync on every (re)connect.
  const hub = new HubClient({
    baseUrl: options.service,
    accessToken: () => options.token,
    http,
    sockets: new NodeWebSocketFactory(),
    clock,
    logger,
  });
  const link = new HubAgentLink(hub, agent, logger, agent.device === undefined ? {} : { deviceUid: agent.device.uid });
  hub.start();
  const stop = (): void => {
    hub.stop();
    link.close();
    agent.stop();
  };
  return { agent, pins, custom, device, logger, hub, stop };
}
