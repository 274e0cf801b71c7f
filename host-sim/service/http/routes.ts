/**
 * The one declaration of every HTTP endpoint (spec 4, decisions 6-7): method,
 * path, who may call it, its query or body schema and its 200 response schema.
 * Fastify validates requests and serialises responses from these, and the
 * OpenAPI document (openapi.ts) is generated from them, so the two cannot
 * drift. Handlers attach by method and path (router.ts); a route without a
 * declaration, or a declaration without a handler, stops the service at start.
 */
import * as S from './schema-parts.js';

type Schema = S.Schema;
export type Method = 'GET' | 'POST';

export interface RouteSpec {
  method: Method;
  path: string;
  summary: string;
  /** Query parameters (every value a string, or a string array for lists). */
  query?: Record<string, Schema>;
  /** Names of `query` that must be present. */
  requiredQuery?: readonly string[];
  /** The JSON body (POST). */
  body?: Schema;
  /** The 200 answer. */
  response: Schema;
  /** The handler writes storage: it waits while storage asks writes to pause (`Storage.whenWritable`). */
  writes?: true;
}

const BodyId: Schema = { type: ['string', 'null'], maxLength: 200, description: 'a string' };
const ids = { device: S.Identifier, entity: S.Identifier };
const bodyIds = { device: BodyId, entity: BodyId };
const list = { entity: S.Identifier, q: { type: 'string', maxLength: 200 }, i: S.Index, l: S.Index };
const arrayOf = (items: Schema): Schema => ({ type: 'array', items });
const body = (properties: Record<string, Schema>, required: string[] = []): Schema => ({
  type: 'object',
  properties,
  required,
  description: 'a JSON object',
});
const name: Schema = { type: 'string', pattern: '\\S', maxLength: 200, description: 'a non-empty string' };
const values = (properties: Record<string, Schema>): Schema => ({
  type: 'object',
  properties,
  description: 'an object',
});
const entries = (item: Schema): Schema => ({
  type: 'array',
  items: item,
  maxItems: 10_000,
  description: 'an array of at most 10000 entries',
});

function reads(kind: 'states' | 'measurements', record: Schema, param: 'channels' | 'metrics'): RouteSpec[] {
  const names = S.queryList(param === 'channels' ? 'state channel names or *.desired / *.reported' : 'metric keys');
  return [
    {
      method: 'GET',
      path: `/api/v1/${kind}/read`,
      summary: `${kind} over [timeRangeStart, timeRangeStop), raw or in windowPeriod windows`,
      query: {
        devices: S.queryList('Device Unique IDs or External keys'),
        entities: S.queryList('Product, Location or Device Unique IDs'),
        [param]: names,
        timeRangeStart: S.ReadTime,
        timeRangeStop: S.ReadTime,
        windowPeriod: S.WindowPeriod,
      },
      response: arrayOf(record),
    },
    {
      method: 'GET',
      path: `/api/v1/${kind}/read/last`,
      summary: `the latest ${kind} per name (the series' aggregatedLast)`,
      query: { ...ids, [param]: names, timeRangeStart: S.ReadTime },
      response: arrayOf(record),
    },
  ];
}

const negotiated: Schema = {
  type: 'object',
  required: ['negotiateVersion', 'connectionId', 'availableTransports'],
  properties: {
    negotiateVersion: { type: 'integer', enum: [0, 1] },
    connectionId: { type: 'string' },
    connectionToken: { type: 'string' },
    availableTransports: {
      type: 'array',
      items: {
        type: 'object',
        required: ['transport', 'transferFormats'],
        properties: { transport: { type: 'string' }, transferFormats: arrayOf({ type: 'string' }) },
        additionalProperties: false,
      },
    },
  },
  additionalProperties: false,
};

export const routeSpecs: readonly RouteSpec[] = [
  { method: 'GET', path: '/api/v1/devices/get', summary: 'one device', query: ids, response: S.Device },
  {
    method: 'GET',
    path: '/api/v1/devices/list',
    summary: 'devices ordered by name then uid (admin)',
    query: list,
    response: arrayOf(S.Device),
  },
  {
    method: 'POST',
    path: '/api/v1/devices/set',
    summary: 'overwrite the given device details that differ (admin)',
    body: body({ ...bodyIds, values: values({ enabled: { type: 'boolean' }, name, key: name }) }, ['values']),
    response: S.Empty,
    writes: true,
  },
  {
    method: 'GET',
    path: '/api/v1/products/get',
    summary: 'one product (admin)',
    query: { product: S.Identifier },
    response: S.Product,
  },
  {
    method: 'GET',
    path: '/api/v1/products/list',
    summary: 'products ordered by name then uid (admin)',
    query: list,
    response: arrayOf(S.Product),
  },
  {
    method: 'POST',
    path: '/api/v1/products/set',
    summary: 'overwrite the given product details that differ (admin)',
    body: body({ product: BodyId, entity: BodyId, values: values({ enabled: { type: 'boolean' }, name }) }, ['values']),
    response: S.Empty,
    writes: true,
  },
  {
    method: 'GET',
    path: '/api/v1/entities/relations/get',
    summary: 'parents and children of an entity',
    query: { entity: S.Identifier },
    requiredQuery: ['entity'],
    response: S.Relations,
  },
  ...(['insert', 'delete'] as const).map((op): RouteSpec => ({
    method: 'POST',
    path: `/api/v1/entities/relations/${op}`,
    summary: `${op} a relation to a parent entity (admin)`,
    body: body({ entity: BodyId, parentEntity: BodyId }, ['entity', 'parentEntity']),
    response: S.Empty,
    writes: true,
  })),
  {
    method: 'POST',
    path: '/api/v1/entities/relations/update',
    summary: 'move an entity from one parent to another (admin)',
    body: body({ entity: BodyId, fromParentEntity: BodyId, toParentEntity: BodyId }, [
      'entity',
      'fromParentEntity',
      'toParentEntity',
    ]),
    response: S.Empty,
    writes: true,
  },
  {
    method: 'GET',
    path: '/api/v1/properties/get',
    summary: "a device's properties",
    query: ids,
    response: S.Properties,
  },
  {
    method: 'POST',
    path: '/api/v1/properties/get',
    summary: "a device's properties (body form)",
    body: body(bodyIds),
    response: S.Properties,
  },
  {
    method: 'POST',
    path: '/api/v1/properties/set',
    summary: 'overwrite the given properties that differ; Notify the changed ones',
    body: body({ ...bodyIds, values: S.PropertyValues }, ['values']),
    response: S.Empty,
    writes: true,
  },
  {
    method: 'GET',
    path: '/api/v1/channels/list',
    summary: "the buses and channels of a device's (or a product's) product",
    query: ids,
    response: S.Channels,
  },
  ...reads('states', S.StateRecord, 'channels'),
  {
    method: 'POST',
    path: '/api/v1/states/write',
    summary: 'write states (validated whole, stored in one transaction)',
    body: body({ ...bodyIds, states: entries(S.StateEntry) }, ['states']),
    response: S.Empty,
    writes: true,
  },
  ...reads('measurements', S.MeasurementRecord, 'metrics'),
  {
    method: 'POST',
    path: '/api/v1/measurements/write',
    summary: 'write measurements (validated whole, stored in one transaction)',
    body: body({ ...bodyIds, measurements: entries(S.MeasurementEntry) }, ['measurements']),
    response: S.Empty,
    writes: true,
  },
  {
    method: 'POST',
    path: '/hubs/properties/negotiate',
    summary: 'SignalR negotiate (spec 4.8 step 1); the body is ignored',
    query: { negotiateVersion: { type: 'string', pattern: '^\\d{1,9}$', description: 'a non-negative integer' } },
    response: negotiated,
  },
];

/** The declaration of a method and path, if any. */
export function routeSpec(method: string, path: string): RouteSpec | undefined {
  return routeSpecs.find((r) => r.method === method && r.path === path);
}

/** The methods declared for a path ('' when the path is not an API route). */
export function allowedMethods(path: string): string {
  return routeSpecs
    .filter((r) => r.path === path)
    .map((r) => r.method)
    .join(', ');
}
