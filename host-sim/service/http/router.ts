/**
 * Attaches the service's handlers to Fastify: each `add(method, path, handler)`
 * finds the route's declaration (routes.ts), registers it with its query or
 * body schema (validated before the handler runs) and its 200 schema
 * (serialised by fast-json-stringify), and authenticates the bearer token and
 * takes one request of its budget (budget.ts, 429 beyond; held first for a
 * token that keeps ignoring Retry-After) before the body is read. A route that
 * writes waits for its turn, in a later turn of the event loop (write-turns.ts),
 * and while storage pauses writes. Handlers return the JSON value to answer with.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Principal, TokenTable } from '../auth.js';
import { ServiceError } from '../errors.js';
import { BudgetRefusal, type RequestBudget } from './budget.js';
import { bodyParams, queryParams, type Params } from './query.js';
import { WriteTurns } from './write-turns.js';
import { routeSpec, routeSpecs, type Method, type RouteSpec } from './routes.js';
import type { Schema } from './schema-parts.js';

/** Largest accepted request body (decisions 6: 413 above 1 MiB). */
export const maxBodyBytes = 1024 * 1024;

export interface RequestContext {
  req: IncomingMessage;
  principal: Principal;
  /** Query parameters for GET, body fields for POST (both validated against the declaration). */
  params: Params;
  /** Unix ms at the moment the request arrived (the injected clock). */
  nowMs: number;
  /** The service's public base URL (for `link`): configured, or the listening address; never the `Host` header. */
  baseUrl: string;
}

export type Handler = (ctx: RequestContext) => unknown;

/**
 * Serves what is not the API: every path outside `/api/`, `/hubs/`,
 * `/firmware` and `/openapi.json` (for example a dashboard at `/`). It owns the response; a
 * throw is a logged 500.
 */
export type FallbackHandler = (req: IncomingMessage, res: ServerResponse) => void | Promise<void>;

/** Whether a path belongs to the API (routes or their 404/405 problems), not to the fallback. */
export function isApiPath(pathname: string): boolean {
  return (
    pathname.startsWith('/api/') ||
    pathname.startsWith('/hubs/') ||
    pathname === '/openapi.json' ||
    pathname === '/healthz' ||
    pathname === '/metrics' ||
    pathname === '/firmware' ||
    pathname.startsWith('/firmware/')
  );
}

/** A request URL for logs: query values that may carry secrets (tokens) replaced. */
export function redactUrl(url: string): string {
  return url.replace(/([?&](?:id|access_token|token)=)[^&]*/gi, '$1***');
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The injected clock's time when the request arrived. */
    nowMs: number;
    /** Set by the route's authentication hook. */
    principal: Principal | null;
  }
}

/**
 * The schema fast-json-stringify serialises with: the declared one without
 * the validation-only `oneOf` of records (value xor error), which would make
 * the serialiser validate every record.
 */
function serialiserSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(serialiserSchema);
  if (typeof schema !== 'object' || schema === null) return schema;
  const out: Schema = {};
  for (const [k, v] of Object.entries(schema)) {
    if (k === 'oneOf' && 'properties' in schema) continue;
    out[k] = serialiserSchema(v);
  }
  return out;
}

/** The Fastify `schema` of a declared route. */
export function fastifySchema(spec: RouteSpec): Record<string, unknown> {
  const schema: Record<string, unknown> = { response: { 200: serialiserSchema(spec.response) } };
  if (spec.query !== undefined) {
    schema['querystring'] = { type: 'object', properties: spec.query, required: spec.requiredQuery ?? [] };
  }
  if (spec.body !== undefined) schema['body'] = spec.body;
  return schema;
}

/**
 * Waits `ms` of real time: how long a refusal is held. The length comes from the service clock (the
 * budget's window); the timer does not keep the process alive (a closing service destroys the socket).
 */
function hold(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

export class Router {
  private readonly attached = new Set<RouteSpec>();
  /** Writes run one per turn of the event loop, round the tokens (write-turns.ts). */
  readonly turns = new WriteTurns();

  /** Set once the server listens (the listening address) unless a public URL was configured. */
  baseUrl = '';

  constructor(
    private readonly app: FastifyInstance,
    private readonly tokens: TokenTable,
    private readonly budget: RequestBudget,
    /** Undefined while writes may go ahead, else when they may (`Storage.whenWritable`). */
    private readonly whenWritable: () => Promise<void> | undefined = () => undefined,
  ) {}

  /** `queryOnPost`: a POST whose parameters are in the query and whose body is ignored (negotiate). */
  add(method: Method, path: string, handler: Handler, options: { queryOnPost?: boolean } = {}): this {
    const spec = routeSpec(method, path);
    if (spec === undefined) throw new ServiceError('config', `${method} ${path} has no declaration in routes.ts`);
    if (this.attached.has(spec)) throw new ServiceError('config', `${method} ${path} is attached twice`);
    this.attached.add(spec);
    const fromQuery = method === 'GET' || options.queryOnPost === true;
    this.app.route({
      method,
      url: path,
      schema: fastifySchema(spec),
      config: { ignoreBody: options.queryOnPost === true },
      onRequest: async (request: FastifyRequest) => {
        const principal = this.tokens.authenticate(request.raw);
        try {
          this.budget.take(principal.token, request.nowMs);
        } catch (e) {
          // A token that keeps ignoring Retry-After gets its 429 when the window ends (budget.ts).
          if (e instanceof BudgetRefusal && e.holdMs > 0) await hold(e.holdMs);
          throw e;
        }
        request.principal = principal;
      },
      handler: async (request) => {
        const params = fromQuery
          ? queryParams((request.query ?? {}) as Record<string, unknown>)
          : bodyParams(request.body);
        const principal = request.principal as Principal;
        if (spec.writes === true) {
          await this.turns.turn(principal.token);
          const paused = this.whenWritable();
          if (paused !== undefined) await paused;
        }
        const result = await handler({
          req: request.raw,
          principal,
          params,
          nowMs: request.nowMs,
          baseUrl: this.baseUrl,
        });
        return result ?? {};
      },
    });
    return this;
  }

  /** Throws `config` when a declared route has no handler (the declarations and the code must agree). */
  assertComplete(): void {
    const missing = routeSpecs.filter((s) => !this.attached.has(s)).map((s) => `${s.method} ${s.path}`);
    if (missing.length > 0)
      throw new ServiceError('config', `declared routes without a handler: ${missing.join(', ')}`);
  }
}
