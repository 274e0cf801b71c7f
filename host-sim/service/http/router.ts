/**
 * The HTTP front: a route table keyed by path and method, bearer
 * authentication, JSON bodies bounded at 1 MiB, the server's `Date` header from
 * the injected clock, and every failure as problem+json (decisions 6).
 * Handlers return the JSON value to answer with.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Principal, TokenTable } from '../auth.js';
import { badRequest, notFound, ServiceError } from '../errors.js';
import { maxJsonDepth, nestedDeeperThan } from '../wire.js';
import { sendProblem, statusOf } from './problem.js';
import { bodyParams, queryParams, type Params } from './query.js';

/** Largest accepted request body (decisions 6: 413 above 1 MiB). */
export const maxBodyBytes = 1024 * 1024;

export interface RequestContext {
  req: IncomingMessage;
  principal: Principal;
  /** Query parameters for GET, body fields for POST. */
  params: Params;
  /** Unix ms at the moment the request arrived (the injected clock). */
  nowMs: number;
  /** The service's public base URL (for `link`): configured, or the listening address; never the `Host` header. */
  baseUrl: string;
}

export type Handler = (ctx: RequestContext) => unknown;

/**
 * Serves what is not the API: every path outside `/api/` and `/hubs/` (for
 * example a dashboard at `/`). It owns the response; a throw is a logged 500.
 */
export type FallbackHandler = (req: IncomingMessage, res: ServerResponse) => void | Promise<void>;

/** Whether a path belongs to the API (routes or their 404/405 problems), not to the fallback. */
export function isApiPath(pathname: string): boolean {
  return pathname.startsWith('/api/') || pathname.startsWith('/hubs/') || pathname === '/openapi.json';
}

/** A request URL for logs: query values that may carry secrets (tokens) replaced. */
export function redactUrl(url: string): string {
  return url.replace(/([?&](?:id|access_token|token)=)[^&]*/gi, '$1***');
}
type Method = 'GET' | 'POST';

/** Reads the body up to `maxBodyBytes`; rejects with 413 beyond (the rest is drained, not stored). */
function readBody(req: IncomingMessage): Promise<string> {
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > maxBodyBytes) return Promise.reject(new ServiceError('too-large', `body over ${maxBodyBytes} bytes`));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= maxBodyBytes) chunks.push(chunk);
    });
    req.on('end', () => {
      if (size > maxBodyBytes) reject(new ServiceError('too-large', `body over ${maxBodyBytes} bytes`));
      else resolve(Buffer.concat(chunks).toString('utf8'));
    });
    req.on('error', reject);
  });
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

export class Router {
  private readonly routes = new Map<string, Partial<Record<Method, Handler>>>();
  private readonly queryOnPost = new Set<string>();

  /** Set once the server listens (the listening address) unless a public URL was configured. */
  baseUrl = '';

  constructor(
    private readonly tokens: TokenTable,
    private readonly now: () => number,
    /** Where every 500 is logged with its cause, whatever the log level. */
    private readonly logError: (line: string) => void,
    private readonly fallback?: FallbackHandler,
  ) {}

  /** `queryOnPost`: a POST whose parameters are in the query and whose body is ignored (negotiate). */
  add(method: Method, path: string, handler: Handler, options: { queryOnPost?: boolean } = {}): this {
    if (options.queryOnPost === true) this.queryOnPost.add(path);
    const entry = this.routes.get(path) ?? {};
    entry[method] = handler;
    this.routes.set(path, entry);
    return this;
  }

  /** Handles one request; never throws (every failure becomes a problem response). */
  async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const nowMs = this.now();
    res.setHeader('Date', new Date(nowMs).toUTCString());
    try {
      const baseUrl = this.baseUrl;
      const url = new URL(req.url ?? '/', 'http://service.invalid');
      if (this.fallback !== undefined && !isApiPath(url.pathname)) {
        await this.fallback(req, res);
        return;
      }
      const entry = this.routes.get(url.pathname);
      if (!entry) throw notFound(`no route ${url.pathname}`);
      const method = req.method === 'HEAD' ? 'GET' : req.method;
      const handler = method === 'GET' || method === 'POST' ? entry[method] : undefined;
      if (!handler) {
        const allow = Object.keys(entry).join(', ');
        req.resume();
        sendProblem(res, new ServiceError('method', `${req.method} not allowed; use ${allow}`), {
          Allow: allow,
        });
        return;
      }
      const principal = this.tokens.authenticate(req);
      let params: Params;
      if (method === 'POST' && !this.queryOnPost.has(url.pathname)) params = bodyParams(parseJson(await readBody(req)));
      else {
        if (method === 'POST') await readBody(req);
        params = queryParams(url.searchParams);
      }
      const result = await handler({ req, principal, params, nowMs, baseUrl });
      const body = JSON.stringify(result ?? {});
      res.writeHead(200, {
        'Content-Type': 'application/json; charset=utf-8',
        'Content-Length': Buffer.byteLength(body),
      });
      res.end(req.method === 'HEAD' ? undefined : body);
    } catch (e) {
      if (statusOf(e) === 500) {
        const cause = e instanceof Error ? (e.stack ?? e.message) : String(e);
        this.logError(`service: ${req.method} ${redactUrl(req.url ?? '')} answered 500: ${cause}`);
      }
      if (res.headersSent) {
        res.destroy();
        return;
      }
      if (!req.complete) {
        res.setHeader('Connection', 'close');
        req.resume();
      }
      sendProblem(res, e);
    }
  }
}
