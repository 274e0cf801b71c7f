/**
 * The Fastify instance of the service: JSON bodies bounded at 1 MiB and 32
 * levels of nesting, the `Date` header from the injected clock, every failure
 * as problem+json (decisions 6), 405 with `Allow` for a declared path under
 * another method, the fallback (dashboard) for non-API paths, the generated
 * OpenAPI document at `/openapi.json`, and malformed framing answered by
 * `answerClientError` (400/408/431).
 */
import type { IncomingMessage } from 'node:http';
import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import type { ErrorObject } from 'ajv';
import type { TokenTable } from '../auth.js';
import { badRequest, isServiceError, notFound, ServiceError } from '../errors.js';
import { maxJsonDepth, nestedDeeperThan } from '../wire.js';
import type { ServiceLimits } from '../limits.js';
import type { RequestBudget } from './budget.js';
import { answerClientError } from './client-error.js';
import { capConnections, type ConnectionCap } from './connections.js';
import { generateOpenApi } from './openapi.js';
import { problemBody, retryAfterOf, sendProblem as sendRawProblem, statusOf } from './problem.js';
import { firmwareAllowedMethods } from '../firmware/openapi.js';
import { allowedMethods } from './routes.js';
import { isApiPath, maxBodyBytes, redactUrl, Router, type FallbackHandler } from './router.js';
import { compileValidator, validationProblem } from './validation.js';

/** A request (headers and body) must arrive within this, or it is answered 408 (Node's default). */
export const requestTimeoutMs = 300_000;

export interface HttpOptions {
  tokens: TokenTable;
  limits: ServiceLimits;
  budget: RequestBudget;
  /** Undefined while writes may go ahead, else when they may (`Storage.whenWritable`). */
  whenWritable: () => Promise<void> | undefined;
  /** Informational lines (refused connections). */
  log: (line: string) => void;
  now: () => number;
  /** Where every 500 is logged with its cause, whatever the log level. */
  logError: (line: string) => void;
  fallback: FallbackHandler;
  tls?: { cert: string; key: string } | undefined;
}

function parseJson(text: string): unknown {
  if (text.trim() === '') throw badRequest('body: expected a JSON object, got an empty body');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw badRequest(`body: malformed JSON (${(e as Error).message})`);
  }
  if (nestedDeeperThan(value, maxJsonDepth)) throw badRequest(`body: JSON nested deeper than ${maxJsonDepth} levels`);
  return value;
}

/**
 * Bodies up to this many bytes are read and dropped after an early answer (a 429 or 401 before the body
 * was read), so the connection stays open; a longer or chunked body closes it instead of being read.
 */
const maxDrainedBodyBytes = 64 * 1024;

/** Whether the connection can stay open after answering: the body was read, or is short enough to drop. */
function drainable(req: IncomingMessage): boolean {
  if (req.complete) return true;
  const length = Number(req.headers['content-length']);
  return req.headers['transfer-encoding'] === undefined && Number.isInteger(length) && length <= maxDrainedBodyBytes;
}

/** The ServiceError a thrown value stands for (Fastify's own errors and validation failures included). */
function asServiceError(e: unknown): unknown {
  if (isServiceError(e)) return e;
  const f = e as { code?: string; statusCode?: number; validation?: ErrorObject[]; validationContext?: string };
  if (Array.isArray(f.validation)) return validationProblem(f.validation, f.validationContext ?? 'body');
  if (f.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return new ServiceError('too-large', `body over ${maxBodyBytes} bytes`);
  if (f.code === 'FST_ERR_CTP_INVALID_CONTENT_LENGTH') return badRequest('Content-Length does not match the body');
  if (f.statusCode === 503) return new ServiceError('unavailable', 'the service is closing');
  if (typeof f.statusCode === 'number' && f.statusCode >= 400 && f.statusCode < 500) {
    return badRequest((e as Error).message);
  }
  return e;
}

function sendProblem(reply: FastifyReply, e: unknown, incomplete: boolean): FastifyReply {
  const status = statusOf(e);
  const detail = status === 500 ? 'internal error' : e instanceof Error ? e.message : String(e);
  if (status === 401) void reply.header('WWW-Authenticate', 'Bearer');
  const retryAfter = retryAfterOf(e);
  if (retryAfter !== undefined) void reply.header('Retry-After', String(retryAfter));
  if (incomplete) void reply.header('Connection', 'close');
  // A Buffer keeps the media type exactly (a string would get `; charset=utf-8` appended).
  return reply
    .code(status)
    .type('application/problem+json')
    .send(Buffer.from(JSON.stringify(problemBody(status, detail))));
}

/**
 * Headers on every answer (decisions 10): no script but the service's own files
 * (the dashboard's module), no framing by any page, no MIME sniffing, no referrer.
 */
export const securityHeaders: Readonly<Record<string, string>> = {
  'Content-Security-Policy':
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; " +
    "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
};

export interface HttpServer {
  app: FastifyInstance;
  router: Router;
  routes: string[];
  connections: ConnectionCap;
}

export function createHttpServer(o: HttpOptions): HttpServer {
  // Node checks the header timeout on this interval: a quarter of it, at most 1 s.
  const timeouts = {
    headersTimeout: o.limits.headersTimeoutMs,
    connectionsCheckingInterval: Math.max(10, Math.min(1000, Math.floor(o.limits.headersTimeoutMs / 4))),
  };
  const app = Fastify({
    logger: false,
    bodyLimit: maxBodyBytes,
    forceCloseConnections: true,
    // Node's own default, which Fastify would turn off: a request that takes over 5 min is answered 408.
    // Keep-alive stays Fastify's 72 s (Node's 5 s raced a client reusing an idle socket: ECONNRESET).
    requestTimeout: requestTimeoutMs,
    return503OnClosing: true,
    clientErrorHandler: answerClientError,
    http: timeouts,
    ...(o.tls === undefined ? {} : { https: { ...o.tls, ...timeouts } }),
  });
  const connections = capConnections(
    app.server,
    o.limits.maxConnections,
    o.limits.retryAfterFullSeconds,
    o.log,
    o.tls !== undefined,
  );
  const router = new Router(app, o.tokens, o.budget, o.whenWritable);
  // Every route as `METHOD /path` (HEAD twins of GET routes left out), for the document's test.
  const routes: string[] = [];
  app.addHook('onRoute', (r) => {
    for (const m of [r.method].flat()) if (m !== 'HEAD') routes.push(`${m} ${r.url}`);
  });
  const log500 = (method: string, url: string, e: unknown): void => {
    const cause = e instanceof Error ? (e.stack ?? e.message) : String(e);
    o.logError(`service: ${method} ${redactUrl(url)} answered 500: ${cause}`);
  };

  app.setValidatorCompiler(compileValidator);
  app.decorateRequest('nowMs', 0);
  app.decorateRequest('principal', null);
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string' }, (request, text, done) => {
    if ((request.routeOptions.config as { ignoreBody?: boolean }).ignoreBody === true) return done(null, undefined);
    try {
      done(null, parseJson(String(text)));
    } catch (e) {
      done(e as Error, undefined);
    }
  });
  app.addHook('onRequest', async (request, reply) => {
    if (connections.isRefused(request.raw.socket)) {
      reply.hijack(); // already answered 503 by the connection cap
      return;
    }
    request.nowMs = o.now();
    reply.raw.setHeader('Date', new Date(request.nowMs).toUTCString());
    for (const [name, value] of Object.entries(securityHeaders)) reply.raw.setHeader(name, value);
  });

  app.setErrorHandler((error, request, reply) => {
    const e = asServiceError(error);
    if (statusOf(e) === 500) log500(request.method, request.url, error);
    if (reply.sent || reply.raw.headersSent) {
      reply.raw.destroy();
      return;
    }
    if (!request.raw.complete) request.raw.resume();
    return sendProblem(reply, e, !drainable(request.raw));
  });

  app.setNotFoundHandler(async (request, reply) => {
    const path = request.url.split('?')[0] ?? '/';
    if (!isApiPath(path)) {
      reply.hijack();
      const res = reply.raw;
      try {
        await o.fallback(request.raw, res);
      } catch (e) {
        if (statusOf(e) === 500) log500(request.method, request.url, e);
        if (res.headersSent) res.destroy();
        else sendRawProblem(res, e);
      }
      return;
    }
    const allow = allowedMethods(path) || firmwareAllowedMethods(path);
    if (allow === '') throw notFound(`no route ${path}`);
    void reply.header('Allow', allow);
    return sendProblem(
      reply,
      new ServiceError('method', `${request.method} not allowed; use ${allow}`),
      !request.raw.complete,
    );
  });

  const document = JSON.stringify(generateOpenApi());
  app.get('/openapi.json', async (_request, reply) => reply.type('application/json; charset=utf-8').send(document));
  return { app, router, routes, connections };
}
