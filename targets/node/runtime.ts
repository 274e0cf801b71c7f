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

export interface NodeAgentOverrides {
  clock?: Clock;
  http?: HttpTransport;
  store?: KeyValueStore;
  logger?: Logger;
  agent?: Partial<AgentOptions>;
}

export interface NodeAgentRuntime {
  agent: Agent;
  pins: SimPins;
  custom: CustomChannels;
  device: SimulatedDevice;
  logger: Logger;
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
  const agent = new Agent({
    clock,
    http: overrides.http ?? new FetchHttp(),
    store,
    logger,
    service: { baseUrl: options.service, device: options.device, token: options.token },
    providers,
    ...overrides.agent,
  });
  await agent.start();
  return { agent, pins, custom, device, logger, stop: () => agent.stop() };
}
