/**
 * Builds and starts one agent on the Node target from parsed options: the
 * object graph of the composition root, shared by `cli.ts` (`npm run agent`),
 * the simulator (`npm start`, `npm run device`, which plug simulated hardware
 * in through `overrides.hardware`) and the end-to-end tests, which inject a
 * FakeClock or their own store.
 */
import { readFileSync } from 'node:fs';
import { Agent } from '../../src/agent/agent.js';
import type { AgentOptions } from '../../src/agent/agent-options.js';
import { Properties } from '../../src/agent/properties.js';
import { CustomChannels } from '../../src/custom/provider.js';
import { RedactingLogger } from '../../src/log/redact.js';
import { startAgentHub } from '../../src/signalr/agent-hub.js';
import { notifiedProperties } from '../../src/signalr/properties.js';
import type { HubClient } from '../../src/signalr/hub-client.js';
import type { Clock, HttpTransport, KeyValueStore, Logger } from '../../src/ports.js';
import { NodeClock } from './clock.js';
import { AgentError } from '../../src/errors.js';
import { FetchHttp, type NodeTlsOptions } from './http.js';
import type { Hardware, HardwarePlug } from './hardware.js';
import { ConsoleLogger } from './logger.js';
import type { NodeAgentOptions } from './options.js';
import { buildProviders } from './providers.js';
import { FileStore, MemoryStore } from './store.js';
import { NodeWebSocketFactory } from './websocket.js';
import { Updater } from '../../src/ota/updater.js';
import { packageVersion } from './ota.js';

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
  /** Hardware beyond the host's serial ports (the simulator plugs in here). */
  hardware?: HardwarePlug;
}

export interface NodeAgentRuntime {
  agent: Agent;
  /** The device's properties (read at start, updated from the hub, cached in the store). */
  properties: Properties;
  custom: CustomChannels;
  /** What the plug gave (empty without one). */
  hardware: Hardware;
  /** The redacting logger every line goes through (also for crash reports: `logger.redact`). */
  logger: RedactingLogger;
  /** The hub connection (desired values, properties), unless disabled. */
  hub: HubClient | undefined;
  /** Reports `fw-running` (the package version) and `unsupported` for an update: Node installs no images. */
  updater: Updater;
  stop(): void;
}

/** `--ca FILE` read and checked, `--insecure` (docs/tls.md); throws AgentError `config.invalid`. */
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
  const custom = new CustomChannels(logger);
  const hardware = overrides.hardware?.({ options, clock, logger, custom }) ?? {};
  const providers = buildProviders({ options, clock, logger, custom, hardware });
  const http = overrides.http ?? new FetchHttp({ tls });
  const refreshMs = configRefreshMs(options);
  const properties = new Properties(store, logger);
  const agent = new Agent({
    clock,
    http,
    store,
    logger,
    service: { baseUrl: options.service, device: options.device, token: options.token },
    providers,
    properties,
    ...(refreshMs === undefined ? {} : { configRefreshMs: refreshMs }),
    ...overrides.agent,
  });
  // Updates (docs/ota.md): the properties the agent reads and the hub pushes reach the updater.
  const updater = new Updater({ clock, http, store, logger, client: agent.client, running: packageVersion() });
  properties.onChange((values) => updater.offer(values));
  updater.reporter.announce();
  await agent.start();
  updater.offer(properties.values);
  const stopAll = (): void => {
    updater.stop();
    agent.stop();
  };
  if (overrides.hub === false || options.values['no-hub'] !== undefined) {
    return { agent, properties, custom, hardware, logger, hub: undefined, updater, stop: stopAll };
  }
  // The hub glue, shared with the Moddable target (src/signalr/agent-hub.ts).
  const { hub } = startAgentHub({
    agent,
    baseUrl: options.service,
    token: options.token,
    http,
    sockets: new NodeWebSocketFactory({ tls }),
    clock,
    logger,
    properties: notifiedProperties(agent),
    ...(overrides.hubOptions?.retry === undefined ? {} : { retry: overrides.hubOptions.retry }),
  });
  if (tls.insecure === true) hub.listen((state) => state === 'connected' && logger.log('warn', insecureWarning));
  const stop = (): void => {
    hub.stop();
    stopAll();
  };
  return { agent, properties, custom, hardware, logger, hub, updater, stop };
}
