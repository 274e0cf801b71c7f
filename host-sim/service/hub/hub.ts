/**
 * The hub `properties` (spec 4.8, decisions 5 and 7): negotiate (versions 1
 * and 0), the WebSocket upgrade with the Authorization header and a
 * single-use connection token, the registry of connections, `SetProperties`,
 * the `Notify` fan-out (a device token sees only its own device; an admin sees
 * every device) and the test controls (faults, drop, close).
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import { applyProperties, parsePropertyValues } from '../api/properties.js';
import type { Device } from '../catalog.js';
import type { Notifier, ServiceContext } from '../context.js';
import { badRequest, forbidden, isServiceError, ServiceError, unauthorized, type ServiceErrorCode } from '../errors.js';
import { retryAfterOf, statusOf } from '../http/problem.js';
import type { RequestBudget } from '../http/budget.js';
import { HubNames as HubWire, HubPaths, isObject } from '../wire.js';
import type { Router } from '../http/router.js';
import { ConnectionTokens } from './connection-tokens.js';
import { HubConnection } from './connection.js';
import { noFaults, type HubFaults } from './faults.js';
import { HubErrors } from './protocol.js';

export interface HubOptions {
  pingIntervalMs: number;
  clientTimeoutMs: number;
  maxMessageBytes: number;
  connectionTokenTtlMs: number;
  maxConnections: number;
  /** Open connections of one access token at most; beyond, its upgrade answers 503. */
  maxConnectionsPerToken: number;
  /** Outstanding negotiate tokens of one access token at most (its oldest is dropped beyond). */
  maxPendingPerToken: number;
  /** WebSocket pings answered per connection per second; beyond, the connection closes (1008). */
  maxPingsPerSecond: number;
  /** The request budget of access tokens: an upgrade (429 beyond) and a SetProperties invocation take one each. */
  budget: RequestBudget;
}

/** Test controls of the hub (see `HubControl` in index.ts). */
export class PropertiesHub implements Notifier {
  readonly faults: HubFaults = noFaults();
  private readonly connections = new Set<HubConnection>();
  /** Connections opened with `observe=1` (the dashboard): they also get `.reported` states and measurements. */
  private readonly observers = new WeakSet<HubConnection>();
  private readonly tokens: ConnectionTokens;
  private readonly wss: WebSocketServer;
  private nextId = 0;
  private nextLabel = 0;
  /** Upgrades refused because `maxConnections` were open. */
  refusedFull = 0;

  constructor(
    private readonly context: ServiceContext,
    private readonly o: HubOptions,
  ) {
    this.tokens = new ConnectionTokens(context.now, o.connectionTokenTtlMs, o.maxPendingPerToken);
    // The record limit is enforced by the decoder (with a Close message); this only bounds memory.
    // Pings are answered by the connection under its rate rule (connection.ts), not automatically.
    this.wss = new WebSocketServer({ noServer: true, maxPayload: o.maxMessageBytes * 4 + 1024, autoPong: false });
  }

  connectionCount(): number {
    return this.connections.size;
  }

  /** Every device's Notify goes to admin connections and to that device's own connections. */
  notify(device: Device, argument: Record<string, unknown>, except?: unknown): void {
    for (const c of this.connections) {
      if (c === except) continue;
      if (c.principal.role === 'admin' || c.principal.device === device.uid) c.invokeClient(HubWire.notify, [argument]);
    }
  }

  /** Open connections of one access token. */
  openFor(accessToken: string): number {
    let n = 0;
    for (const c of this.connections) if (c.principal.token === accessToken) n++;
    return n;
  }

  observe(device: Device, argument: () => Record<string, unknown>): void {
    let built: Record<string, unknown> | undefined;
    for (const c of this.connections) {
      if (!this.observers.has(c)) continue;
      if (c.principal.role === 'admin' || c.principal.device === device.uid)
        c.invokeClient(HubWire.notify, [(built ??= argument())]);
    }
  }

  dropAll(): void {
    for (const c of [...this.connections]) c.drop();
  }

  closeAll(options: { allowReconnect: boolean; error?: string }): void {
    for (const c of [...this.connections]) c.close(options.allowReconnect, options.error);
  }

  /** POST /hubs/properties/negotiate (spec 4.8 step 1). */
  addNegotiateRoute(router: Router): void {
    router.add(
      'POST',
      HubPaths.negotiate,
      (request) => {
        if (this.faults.refuseWith !== null) throw refusal(this.faults.refuseWith);
        const v = request.params.string('negotiateVersion') ?? '0';
        if (!/^\d+$/.test(v)) throw badRequest('negotiateVersion: expected a non-negative integer');
        const token = this.tokens.issue(request.principal.token);
        const connectionId = `c${++this.nextId}`;
        const availableTransports = [{ transport: 'WebSockets', transferFormats: ['Text', 'Binary'] }];
        // Version 0: the client uses connectionId as the connection's id.
        if (Number(v) === 0) return { negotiateVersion: 0, connectionId: token, availableTransports };
        return { negotiateVersion: 1, connectionId, connectionToken: token, availableTransports };
      },
      { queryOnPost: true },
    );
  }

  /** The `upgrade` event of the HTTP server (spec 4.8 step 2). */
  upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    // The server hands the socket over without its error listener: a client that resets it (a refusal
    // being written, an upgrade under way) would be an uncaught ECONNRESET that stops the service.
    socket.on('error', () => socket.destroy());
    const url = new URL(req.url ?? '/', 'http://localhost');
    try {
      if (url.pathname !== HubPaths.hub) throw reject('not-found', `no hub at ${url.pathname}`);
      if (this.faults.refuseWith !== null) throw refusal(this.faults.refuseWith);
      if (this.connections.size >= this.o.maxConnections) {
        this.refusedFull++;
        throw new ServiceError('unavailable', `hub full: ${this.o.maxConnections} connections`, {
          retryAfterSeconds: 1,
        });
      }
      const principal = this.context.tokens.authenticate(req, url.searchParams.get('access_token'));
      this.o.budget.take(principal.token, this.context.now());
      if (this.openFor(principal.token) >= this.o.maxConnectionsPerToken) {
        this.refusedFull++;
        throw new ServiceError(
          'unavailable',
          `this access token has ${this.o.maxConnectionsPerToken} hub connections open`,
          { retryAfterSeconds: 1 },
        );
      }
      const id = url.searchParams.get('id');
      const outcome = id === null ? 'unknown' : this.tokens.redeem(id, principal.token);
      if (outcome === 'other-token') throw reject('forbidden', 'Forbidden');
      if (outcome !== 'ok') throw reject('not-found', 'No Connection with that ID');
      this.wss.handleUpgrade(req, socket, head, (ws) => {
        // Logs name the connection by a counter: the connection token is a secret until it expires.
        const label = `h${++this.nextLabel}`;
        const connection = new HubConnection(ws, principal, label, {
          ...this.o,
          faults: this.faults,
          log: this.context.log,
          now: this.context.now,
          invoke: (conn, target, args) => this.invoke(conn, target, args),
          onClosed: (conn) => this.connections.delete(conn),
        });
        this.connections.add(connection);
        if (url.searchParams.get('observe') === '1') this.observers.add(connection);
        this.context.log(`hub: connection ${label} open (${principal.role})`);
      });
    } catch (e) {
      const status = statusOf(e);
      const body = e instanceof Error ? e.message : 'error';
      this.context.log(`hub: upgrade refused with ${status}: ${body}`);
      const retryAfter = retryAfterOf(e);
      socket.end(
        `HTTP/1.1 ${status} ${reasons[status] ?? 'Error'}\r\nConnection: close\r\nContent-Type: text/plain\r\n` +
          `Content-Length: ${Buffer.byteLength(body)}\r\n${status === 401 ? 'WWW-Authenticate: Bearer\r\n' : ''}` +
          `${retryAfter === undefined ? '' : `Retry-After: ${retryAfter}\r\n`}\r\n${body}`,
      );
    }
  }

  /**
   * Client-to-server invocations; targets match case-insensitively like ASP.NET Core. A SetProperties
   * invocation writes, so it takes one request of the token's budget as an HTTP request does
   * (decisions 10); with none left it completes with an error naming the budget and the seconds to
   * wait, and changes nothing.
   */
  private invoke(connection: HubConnection, target: string, args: unknown[]): unknown {
    if (target.toLowerCase() !== HubWire.setProperties.toLowerCase()) throw new Error(HubErrors.unknownMethod(target));
    try {
      this.o.budget.take(connection.principal.token, this.context.now());
    } catch (e) {
      if (!isServiceError(e)) throw e;
      throw new Error(HubErrors.hubException(HubWire.setProperties, e.message));
    }
    const arg = args[0];
    if (args.length !== 1 || !isObject(arg) || !isObject(arg['values'])) {
      throw new Error(HubErrors.bindingFailure(HubWire.setProperties));
    }
    const p = connection.principal;
    const device = p.role === 'device' ? this.context.catalog.deviceByRef(p.device) : undefined;
    if (!device)
      throw new Error(HubErrors.hubException(HubWire.setProperties, 'the access token belongs to no device'));
    try {
      const values = parsePropertyValues(this.context, device, arg['values'], p);
      return applyProperties(this.context, device, values, connection);
    } catch (e) {
      if (!isServiceError(e)) throw e;
      throw new Error(HubErrors.hubException(HubWire.setProperties, e.message));
    }
  }

  close(): void {
    this.dropAll();
    this.wss.close();
  }
}

const reasons: Readonly<Record<number, string>> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  429: 'Too Many Requests',
  503: 'Service Unavailable',
};

function reject(code: ServiceErrorCode, text: string): ServiceError {
  return new ServiceError(code, text);
}

/** The `refuseWith` fault switch as an error. */
function refusal(status: 401 | 403): ServiceError {
  return status === 401
    ? unauthorized('refused by the refuseWith fault switch')
    : forbidden('refused by the refuseWith fault switch');
}
