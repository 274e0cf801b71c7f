/**
 * The programmatic API of the local Device Data Service (docs/service.md): seeds the
 * catalog from a fixture, opens the SQLite storage, serves every HTTP endpoint
 * of spec section 4 and the hub `properties` on one port. This is the
 * composition root; the CLI (`cli.ts`) and the tests call `startService`.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { addDeviceRoutes } from './api/devices.js';
import { addMeasurementRoutes } from './api/measurements.js';
import { addProductRoutes } from './api/products.js';
import { addPropertyRoutes } from './api/properties.js';
import { addRelationRoutes } from './api/relations.js';
import { addStateRoutes } from './api/states.js';
import { serveDashboard } from '../dashboard/serve.js';
import { createContext } from './context.js';
import { FirmwareFolder } from './firmware/folder.js';
import { addFirmwareRoutes } from './firmware/routes.js';
import { defaultMaxDownloads, defaultRetryAfterS, DownloadSlots } from './firmware/slots.js';
import { notFound, ServiceError } from './errors.js';
import { loadFixture, validateFixture, type Fixture } from './fixture.js';
import type { FallbackHandler } from './http/router.js';
import { watchConnections, type ConnectionCounts } from './http/connection-counts.js';
import { createHttpServer } from './http/server.js';
import type { HubFaults } from './hub/faults.js';
import { PropertiesHub } from './hub/hub.js';
import { openSqliteStorage } from './store/sqlite-storage.js';
import { RequestBudget } from './http/budget.js';
import { addOperationRoutes } from './http/operations.js';
import { resolveLimits, type ServiceLimits } from './limits.js';

export type {
  Fixture,
  FixtureDevice,
  FixtureProduct,
  FixtureToken,
  FixtureLocation,
  FixtureRelation,
} from './fixture.js';
export { validateFixture, loadFixture } from './fixture.js';
export type { HubFaults } from './hub/faults.js';
export { defaultLimits, type ServiceLimits } from './limits.js';
export type { FallbackHandler } from './http/router.js';
export type { DownloadStats } from './firmware/slots.js';

export interface ServiceOptions {
  /** Path to a fixture JSON file, or the parsed object (decisions 7). */
  fixture: string | Fixture;
  /** Default 0 (an ephemeral port, for tests). */
  port?: number;
  /** Default '127.0.0.1'. Use '0.0.0.0' for a board on the LAN. */
  host?: string;
  /** SQLite file; default ':memory:'. The file remains after `close()`. */
  dbPath?: string;
  /** Unix ms; default Date.now. All server time (defaults, Durations, Date header, token expiry) goes through it. */
  now?: () => number;
  hub?: {
    pingIntervalMs?: number;
    clientTimeoutMs?: number;
    maxMessageBytes?: number;
    connectionTokenTtlMs?: number;
    /** Open hub connections at most (default 1000); beyond, the upgrade answers 503. */
    maxConnections?: number;
    /** Open hub connections of one access token at most (default 8); beyond, its upgrade answers 503. */
    maxConnectionsPerToken?: number;
    /** Outstanding negotiate tokens of one access token (default 16); beyond, its own oldest is dropped. */
    maxPendingPerToken?: number;
  };
  /** Informational lines (listening, hub connections, refusals). Default: silent. */
  log?: (line: string) => void;
  /** Every 500 with its cause, whatever `log` is. Default: standard error. */
  logError?: (line: string) => void;
  /**
   * The base of every `link` (e.g. https://dds.example:8443). Default: the
   * listening address. The request's `Host` header is never used.
   */
  publicUrl?: string;
  /**
   * Serves every request outside `/api/`, `/hubs/` and `/openapi.json` (e.g. a
   * dashboard at `/`); it owns the response. Default: the dashboard's files, and 404 problems for the rest.
   */
  fallback?: FallbackHandler;
  /** Serve HTTPS and WSS with this certificate chain and key (PEM text; docs/tls.md). Default: plain HTTP. */
  tls?: { cert: string; key: string };
  /** Overrides of the fair-share limits (limits.ts; docs/service.md#limits). */
  limits?: Partial<ServiceLimits>;
  /** Serve the firmware images of `dir` at `/firmware/<name>` (decisions 12; docs/service.md). Default: none. */
  firmware?: FirmwareOptions;
}

export interface FirmwareOptions {
  /** The folder of images; a missing or unreadable folder stops the service (`config`). */
  dir: string;
  /** Concurrent downloads across all tokens (default 16); beyond, 503 with `Retry-After`. */
  maxDownloads?: number;
  /** The `Retry-After` seconds of a refused download (default 2). */
  retryAfterS?: number;
}

export interface HubControl {
  /** Mutable switches, read at the moment of each action. */
  faults: HubFaults;
  connectionCount(): number;
  /** Terminates every hub socket abruptly (no Close message). */
  dropAll(): void;
  /** Sends Close (type 7), then closes. */
  closeAll(options: { allowReconnect: boolean; error?: string }): void;
}

export interface RunningService {
  /** e.g. http://127.0.0.1:PORT, or https:// with `tls` (the {base_url}). */
  url: string;
  /** e.g. ws://127.0.0.1:PORT. */
  wsUrl: string;
  port: number;
  hub: HubControl;
  /** The connections the server accepted (and TLS sessions resumed), live. */
  connections: ConnectionCounts;
  /** Firmware downloads: `snapshot()` of slots held now, the most held at once, served and refused (503); `until`. */
  downloads: Pick<DownloadSlots, 'max' | 'snapshot' | 'until'>;
  /** Closes sockets and the database; the database file remains. */
  close(): Promise<void>;
}

/** The service, built but not listening: its Fastify instance answers `inject` (tests). */
export interface ServiceApp {
  app: FastifyInstance;
  /** The base of every `link`; `startService` sets the listening address unless `publicUrl` was given. */
  setBaseUrl(url: string): void;
  hub: PropertiesHub;
  /** The bound on concurrent firmware downloads, with its counters. */
  downloads: DownloadSlots;
  /** Every route Fastify serves, as `METHOD /path` (HEAD twins of GET routes left out). */
  routes: readonly string[];
  /** The connections the server accepted (and TLS sessions resumed), live. */
  connections: ConnectionCounts;
  /** Closes the hub, the server and the database. */
  close(): Promise<void>;
}

/** Builds the service (catalog, storage, hub, routes) without listening. A bad fixture throws ServiceError `config`. */
export async function createServiceApp(options: ServiceOptions): Promise<ServiceApp> {
  if (options.publicUrl !== undefined && !/^https?:\/\/[^/?#\s]+\/?$/.test(options.publicUrl)) {
    throw new ServiceError(
      'config',
      `publicUrl: expected http(s)://host[:port], got ${JSON.stringify(options.publicUrl)}`,
    );
  }
  const fixture = typeof options.fixture === 'string' ? loadFixture(options.fixture) : validateFixture(options.fixture);
  const folder = options.firmware === undefined ? undefined : new FirmwareFolder(options.firmware.dir);
  const downloads = new DownloadSlots(options.firmware?.maxDownloads ?? defaultMaxDownloads);
  const retryAfterS = options.firmware?.retryAfterS ?? defaultRetryAfterS;
  if (!Number.isInteger(retryAfterS) || retryAfterS < 0)
    throw new ServiceError('config', `firmware.retryAfterS: expected a whole number of seconds, got ${retryAfterS}`);
  const log = options.log ?? (() => undefined);
  const limits = resolveLimits(options.limits);
  const logError = options.logError ?? ((line: string) => void process.stderr.write(`${line}\n`));
  const storage = openSqliteStorage(options.dbPath ?? ':memory:', logError);
  const context = createContext(fixture, storage, limits, options.now ?? Date.now, log);
  const budget = new RequestBudget(limits.ratePerSecond, limits.burst, limits.refusalsBeforeHold);
  const hub = new PropertiesHub(context, {
    pingIntervalMs: options.hub?.pingIntervalMs ?? 15_000,
    clientTimeoutMs: options.hub?.clientTimeoutMs ?? 30_000,
    maxMessageBytes: options.hub?.maxMessageBytes ?? 32 * 1024,
    connectionTokenTtlMs: options.hub?.connectionTokenTtlMs ?? 30_000,
    maxConnections: options.hub?.maxConnections ?? 1000,
    maxConnectionsPerToken: options.hub?.maxConnectionsPerToken ?? 8,
    maxPendingPerToken: options.hub?.maxPendingPerToken ?? 16,
    maxPingsPerSecond: limits.maxPingsPerSecond,
    budget,
  });
  context.notifier = hub;
  const { app, router, routes, connections } = createHttpServer({
    tokens: context.tokens,
    limits,
    budget,
    whenWritable: () => storage.whenWritable(),
    log,
    now: context.now,
    logError,
    fallback: options.fallback ?? dashboardFallback,
    tls: options.tls,
  });
  addDeviceRoutes(router, context);
  addProductRoutes(router, context);
  addRelationRoutes(router, context);
  addPropertyRoutes(router, context);
  addStateRoutes(router, context);
  addMeasurementRoutes(router, context);
  hub.addNegotiateRoute(router);
  router.assertComplete();
  // Loaded here, not at the module's top: prom-client takes about half a second to load, which every
  // command's `--help` would pay (test/project/commands.test.ts).
  const { ServiceMetrics } = await import('./http/metrics.js');
  const metrics = new ServiceMetrics({
    hubConnections: () => hub.connectionCount(),
    storageBytes: () => storage.sizeBytes(),
    openConnections: () => connections.open(),
    connectionsRefused: () => connections.refused(),
    rateLimited: () => budget.refused,
    rateLimitedHeld: () => budget.held,
  });
  context.counters = metrics;
  addOperationRoutes(app, { storage, tokens: context.tokens, metrics, log });
  addFirmwareRoutes(app, { tokens: context.tokens, folder, slots: downloads, retryAfterS });
  app.server.on('upgrade', (req, socket, head) => {
    if (connections.isRefused(socket)) return; // answered 503 by the connection cap
    hub.upgrade(req, socket, head);
  });
  const counts = watchConnections(app.server, options.tls !== undefined);
  const setBaseUrl = (url: string): void => {
    router.baseUrl = (options.publicUrl ?? url).replace(/\/+$/, '');
  };
  setBaseUrl('http://127.0.0.1');
  let closed: Promise<void> | undefined;
  return {
    app,
    setBaseUrl,
    hub,
    downloads,
    routes,
    connections: counts,
    close() {
      closed ??= (async () => {
        hub.close();
        try {
          await app.close();
        } finally {
          await storage.close();
        }
      })();
      return closed;
    },
  };
}

/** Starts the service; resolves once it listens. A bad fixture rejects with ServiceError `config`. */
export async function startService(options: ServiceOptions): Promise<RunningService> {
  const built = await createServiceApp(options);
  const host = options.host ?? '127.0.0.1';
  const log = options.log ?? (() => undefined);
  const displayHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  const scheme = options.tls === undefined ? 'http' : 'https';
  try {
    await built.app.listen({ port: options.port ?? 0, host });
  } catch (e) {
    await built.close();
    throw e;
  }
  const port = (built.app.server.address() as AddressInfo).port;
  const url = `${scheme}://${displayHost.includes(':') ? `[${displayHost}]` : displayHost}:${port}`;
  built.setBaseUrl(url);
  log(`service listening on ${url}`);
  const hub = built.hub;
  return {
    url,
    wsUrl: url.replace(/^http/, 'ws'),
    port,
    connections: built.connections,
    downloads: built.downloads,
    hub: {
      faults: hub.faults,
      connectionCount: () => hub.connectionCount(),
      dropAll: () => hub.dropAll(),
      closeAll: (o) => hub.closeAll(o),
    },
    close: () => built.close(),
  };
}

/** The default for non-API paths: the dashboard's files (GET/HEAD), and a 404 problem for anything else. */
function dashboardFallback(req: IncomingMessage, res: ServerResponse): void {
  if (!serveDashboard(req, res)) throw notFound(`no route ${(req.url ?? '/').split('?')[0] ?? '/'}`);
}
