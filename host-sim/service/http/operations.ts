/**
 * Operations endpoints (decisions 10): `GET /healthz` answers 200 with the
 * version while storage can be read and written (a probe write rolled back),
 * 503 with `Retry-After` otherwise, with no token (a load balancer asks it);
 * `GET /metrics` answers the Prometheus text format to an admin token. Every
 * answered request is counted for the metrics by its declared route.
 */
import { readFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { requireAdmin, type TokenTable } from '../auth.js';
import { ServiceError } from '../errors.js';
import type { Storage } from '../store/storage.js';
import type { ServiceMetrics } from './metrics.js';

/** The service's version: package.json's (this module runs from build/host-sim/service/http). */
export const serviceVersion: string = (
  JSON.parse(readFileSync(new URL('../../../../package.json', import.meta.url), 'utf8')) as { version: string }
).version;

export function addOperationRoutes(
  app: FastifyInstance,
  o: { storage: Storage; tokens: TokenTable; metrics: ServiceMetrics; log: (line: string) => void },
): void {
  app.get('/healthz', async (_request, reply) => {
    try {
      o.storage.probe();
    } catch (e) {
      o.log(`service: healthz: storage cannot be written (${(e as Error).message})`);
      throw new ServiceError('unavailable', `storage cannot be written: ${(e as Error).message}`, {
        cause: e,
        retryAfterSeconds: 5,
      });
    }
    return reply.type('application/json; charset=utf-8').send({ status: 'ok', version: serviceVersion });
  });

  app.get('/metrics', async (request, reply) => {
    requireAdmin(o.tokens.authenticate(request.raw), 'read the metrics');
    const { contentType, body } = await o.metrics.text();
    return reply.type(contentType).send(body);
  });

  const started = new WeakMap<object, number>();
  app.addHook('onRequest', async (request) => {
    started.set(request, performance.now());
  });
  app.addHook('onResponse', async (request, reply) => {
    const t0 = started.get(request);
    const route = request.routeOptions.url ?? (request.url.startsWith('/api/') ? 'other' : 'dashboard');
    o.metrics.request(route, request.method, reply.statusCode, t0 === undefined ? 0 : (performance.now() - t0) / 1000);
  });
}
