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
import { AgentError } from '../../src/errors.js';
import { FetchHttp, type NodeTlsOptions } from './http.js';
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
  /** Hub client options for tests (e.g. a short `retry`). */
  hubOptions?: { retry?: { nextDelayMs(attempt: number): number | null } };
}

export interface NodeAgentRuntime {
  agent: Agent;
  pins: SimPins;
  custom: CustomChannels;
  device: SimulatedDevice;
  /** The redacting logger every line goes through (also for crash reports: `logger.redact`). */
  logger: RedactingLogger;
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

/** `--ca FILE` read and checked, `--insecure` (issue 8); throws AgentError `config.invalid`. */
export function loadTlsOptions(
  options: NodeAgentOptions,
  readFile: (path: string) => string = (p) => readFileSync(p, 'utf8'),
): NodeTlsOptions {
  const caPath = options.values['ca']?.[0];
  const insecureValue = options.values['insecure']?.[0];
  const insecure = insecureValue !== undefined && !/^(|0|false|no)$/i.test(insecureValue);
  if (caPath === undefined) return insecure ? { insecure } : {};
  let ca: string;
  try {
    ca = readFile(caPath);
  } catch (e) {
    throw new AgentError('config.invalid', `--ca ${caPath}: ${e instanceof Error ? e.message : String(e)}`);
  }
  if (!ca.includes('-----BEGIN CERTIFICATE-----')) {
    throw new AgentError('config.invalid', `--ca ${caPath}: no PEM certificate (-----BEGIN CERTIFICATE-----) in it`);
  }
  return insecure ? { ca, insecure } : { ca };
}

const insecureWarning =
  'TLS CERTIFICATES ARE NOT CHECKED (--insecure): anyone on the network can impersonate the service; lab use only';

/** `--config-refresh SECONDS` (DDS_CONFIG_REFRESH) in ms, or undefined for the agent's default. */
export function configRefreshMs(options: NodeAgentOptions): number | undefined {
  const text = options.values['config-refresh']?.[0];
  if (text === undefined) return undefined;
  const seconds = Number(text);
  if (text.trim() === '' || !Number.isFinite(seconds) || seconds < 0) {
    throw new AgentError('config.invalid', `--config-refresh must be a number of seconds >= 0, got "${text}"`);
  }
  return Math.round(seconds * 1000);
}

/** Builds the agent and starts it (resolves after the first configuration attempt). */
export async function startNodeAgent(
  options: NodeAgentOptions,
  overrides: NodeAgentOverrides = {},
): Promise<NodeAgentRuntime> {
  const clock = overrides.clock ?? new NodeClock();
  const logger = new RedactingLogger(overrides.logger ?? new ConsoleLogger(options.logLevel));
  logger.addSecret(options.token);
  const tls = loadTlsOptions(options);
  if (tls.insecure === true) logger.log('warn', insecureWarning);
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
  const http = overrides.http ?? new FetchHttp({ tls });
  const refreshMs = configRefreshMs(options);
  const agent = new Agent({
    clock,
    http,
    store,
    logger,
    service: { baseUrl: options.service, device: options.device, token: options.token },
    providers,
    ...(refreshMs === undefined ? {} : { configRefreshMs: refreshMs }),
    ...overrides.agent,
  });
  await agent.start();
  if (overrides.hub === false || options.values['no-hub'] !== undefined) {
    return { agent, pins, custom, device, logger, hub: undefined, stop: () => agent.stop() };
  }
  let previous: { connectionToken: string; accessToken: string } | undefined;
  // The hub glue of issue 4: Notify -> applyDesired, properties, resync on every (re)connect.
  const hub = new HubClient({
    baseUrl: options.service,
    accessToken: () => options.token,
    http,
    sockets: new NodeWebSocketFactory({ tls }),
    clock,
    logger,
    ...overrides.hubOptions,
    // Connection tokens are secrets too (issue 8); only the current one is kept, they are single-use.
    onSecrets: (secrets) => {
      if (previous !== undefined) {
        logger.removeSecret(previous.connectionToken);
        if (previous.accessToken !== options.token) logger.removeSecret(previous.accessToken);
      }
      logger.addSecret(secrets.connectionToken);
      logger.addSecret(secrets.accessToken);
      previous = secrets;
    },
  });
  if (tls.insecure === true) hub.onStateChange((state) => state === 'connected' && logger.log('warn', insecureWarning));
  const link = new HubAgentLink(hub, agent, logger, agent.device === undefined ? {} : { deviceUid: agent.device.uid });
  hub.start();
  const stop = (): void => {
    hub.stop();
    link.close();
    agent.stop();
  };
  return { agent, pins, custom, device, logger, hub, stop };
}
