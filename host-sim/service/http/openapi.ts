/**
 * The OpenAPI 3.1 document, generated from the route declarations
 * (routes.ts): parameters and request bodies from the schemas Fastify
 * validates with, 200 answers from the schemas it serialises with, and the
 * problem answers every operation may give (400, 401, 403, 404, 408, 413, 429,
 * 431, 500, 503), the limits (docs/service.md#limits), `/healthz` and `/metrics`. Shared schema pieces (schema-parts.ts `components`) become `$ref`s.
 * Served at `/openapi.json`; `npm run openapi` writes docs/openapi.json.
 */
import { defaultLimits } from '../limits.js';
import { firmwarePaths } from '../firmware/openapi.js';
import { maxBodyBytes } from './router.js';
import { routeSpecs, type RouteSpec } from './routes.js';
import { components, type Schema } from './schema-parts.js';

const byIdentity = new Map<unknown, string>(Object.entries(components).map(([name, s]) => [s, name]));

/** A deep copy in which every named piece (other than `self`) is a `$ref`. */
function refs(value: unknown, self?: string): unknown {
  const name = byIdentity.get(value);
  if (name !== undefined && name !== self) return { $ref: `#/components/schemas/${name}` };
  if (Array.isArray(value)) return value.map((v) => refs(v));
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, refs(v)]));
}

const problems: Readonly<Record<string, string>> = {
  '400': 'A parameter or body field breaks its schema or a rule of the specification (the detail names it)',
  '401': 'Missing or unknown bearer token (with WWW-Authenticate: Bearer)',
  '403': 'The token may not do this (a device token beyond its own device, or an admin-only operation)',
  '404': 'Unknown entity, device or relation',
  '408': 'The request took too long to arrive (the connection closes)',
  '413': `A body over ${maxBodyBytes} bytes (1 MiB), or a string property over ${defaultLimits.maxPropertyBytes} UTF-8 bytes`,
  '429':
    `The access token's request budget is spent (a token bucket: ${defaultLimits.ratePerSecond} requests/s, ` +
    `burst ${defaultLimits.burst}); Retry-After gives the seconds to wait. Past ${defaultLimits.refusalsBeforeHold} ` +
    'more refusals within one Retry-After, each further 429 is answered only when that Retry-After ends',
  '431': 'Request headers, or the URL, over 16 KB (the connection closes)',
  '500': 'An internal error (logged with its cause; the detail stays generic)',
  '503':
    `The service is closing, or holds its ${defaultLimits.maxConnections} connections (with Retry-After), ` +
    'or the hub is refusing negotiation',
};

function operation(spec: RouteSpec): Record<string, unknown> {
  const op: Record<string, unknown> = {
    summary: spec.summary,
    operationId: `${spec.method.toLowerCase()}${spec.path}`,
  };
  if (spec.query !== undefined) {
    op['parameters'] = Object.entries(spec.query).map(([name, schema]) => ({
      name,
      in: 'query',
      required: spec.requiredQuery?.includes(name) === true,
      ...(typeof schema['description'] === 'string' ? { description: schema['description'] } : {}),
      schema: refs(schema),
      ...(schema['type'] === 'array' ? { style: 'form', explode: true } : {}),
    }));
  }
  if (spec.body !== undefined) {
    op['requestBody'] = { required: true, content: { 'application/json': { schema: refs(spec.body) } } };
  }
  const responses: Record<string, unknown> = {
    '200': { description: 'OK', content: { 'application/json': { schema: refs(spec.response) } } },
  };
  for (const status of Object.keys(problems)) {
    if (status === '413' && spec.method === 'GET') continue;
    responses[status] = { $ref: `#/components/responses/Problem${status}` };
  }
  op['responses'] = responses;
  return op;
}

/** The document of the served routes, in declaration order. */
export function generateOpenApi(): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const spec of routeSpecs) (paths[spec.path] ??= {})[spec.method.toLowerCase()] = operation(spec);
  Object.assign(paths, firmwarePaths);
  paths['/openapi.json'] = {
    get: {
      summary: 'this document',
      security: [],
      responses: { '200': { description: 'The OpenAPI 3.1 document', content: { 'application/json': {} } } },
    },
  };
  paths['/healthz'] = {
    get: {
      summary: 'health for a load balancer: 200 with the version while storage can be read and written',
      security: [],
      responses: {
        '200': {
          description: 'Storage can be read and written',
          content: {
            'application/json': {
              schema: {
                type: 'object',
                required: ['status', 'version'],
                properties: { status: { const: 'ok' }, version: { type: 'string' } },
              },
            },
          },
        },
        '503': { $ref: '#/components/responses/Problem503' },
      },
    },
  };
  paths['/metrics'] = {
    get: {
      summary: 'Prometheus metrics (text format): requests, durations, hub connections, records, storage (admin)',
      responses: {
        '200': { description: 'The Prometheus text exposition format 0.0.4', content: { 'text/plain': {} } },
        '401': { $ref: '#/components/responses/Problem401' },
        '403': { $ref: '#/components/responses/Problem403' },
      },
    },
  };
  paths['/hubs/properties'] = {
    get: {
      summary: 'SignalR WebSocket transport (spec 4.8; an Upgrade request, not served as plain HTTP)',
      parameters: [{ name: 'id', in: 'query', required: true, schema: { type: 'string' } }],
      responses: {
        '101': { description: 'Switching Protocols (WebSocket, JSON hub protocol)' },
        '401': { description: 'Missing or unknown bearer token' },
        '403': { description: 'The connection token belongs to another access token' },
        '404': { description: 'Unknown, used or expired connection token' },
        '429': { description: "The access token's request budget is spent (with Retry-After)" },
        '503': {
          description: 'The hub holds its maximum of connections (all, or of this access token), with Retry-After',
        },
      },
    },
  };
  const problemResponses = Object.fromEntries(
    Object.entries(problems).map(([status, description]) => [
      `Problem${status}`,
      {
        description,
        ...(status === '429' || status === '503'
          ? { headers: { 'Retry-After': { description: 'Seconds to wait', schema: { type: 'integer', minimum: 1 } } } }
          : {}),
        content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } },
      },
    ]),
  );
  return {
    openapi: '3.1.0',
    info: {
      title: 'Device Data Service (local implementation)',
      version: '1.0.0',
      description:
        'Generated from the route declarations of host-sim/service/http/routes.ts (docs/service.md); do not edit. ' +
        'Every operation needs `Authorization: Bearer <token>`. Errors are RFC 9457 problem details. ' +
        'Timestamps in responses are Unix seconds with millisecond precision. List parameters repeat the key ' +
        'or carry one comma-separated value. Limits (docs/service.md#limits): ' +
        `${defaultLimits.ratePerSecond} requests/s per access token, burst ${defaultLimits.burst} (429 beyond, held ` +
        `until its Retry-After ends past ${defaultLimits.refusalsBeforeHold} refusals within it; the ` +
        'hub negotiate, its upgrade and each SetProperties invocation over the hub draw on the same budget); ' +
        `${defaultLimits.maxConnections} open connections (503 beyond); request headers within ` +
        `${defaultLimits.headersTimeoutMs / 1000} s (408 beyond); a string property at most ` +
        `${defaultLimits.maxPropertyBytes} UTF-8 bytes, ${defaultLimits.maxPropertiesPerDevice} properties per device; ` +
        `a string state at most ${defaultLimits.maxStateStringBytes} UTF-8 bytes; an object measurement at most ` +
        `${defaultLimits.maxMeasurementObjectBytes} bytes of JSON; a state error from -1 to -4095. ` +
        'Every page carries Content-Security-Policy, X-Content-Type-Options and Referrer-Policy.',
    },
    security: [{ bearer: [] }],
    paths,
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
      schemas: Object.fromEntries(Object.entries(components).map(([name, s]) => [name, refs(s, name) as Schema])),
      responses: problemResponses,
    },
  };
}

/** The text of docs/openapi.json: the document as indented JSON with a final newline. */
export function openApiText(): string {
  return `${JSON.stringify(generateOpenApi(), null, 2)}\n`;
}
