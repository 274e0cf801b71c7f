/**
 * The JSON Schema pieces the route declarations (routes.ts) are built from:
 * identifiers, time parameters, write entries, response records and the
 * problem body. Each piece is one object; the OpenAPI generator turns every
 * piece listed in `components` into a `$ref` wherever it is used, so the
 * document names them once.
 */
import { Aggregates, LocationFields } from '../wire.js';

export type Schema = Record<string, unknown>;

/** A trimmed identifier: UUID, External key or product uid. */
export const Identifier: Schema = {
  type: 'string',
  minLength: 1,
  maxLength: 200,
  description: 'a UUID or External key',
};

/** A list parameter of the query: the key repeated, or one comma-separated value (decisions 6). */
export function queryList(description: string): Schema {
  return {
    type: 'array',
    items: { type: 'string', maxLength: 4000 },
    maxItems: 1000,
    description: `${description} (repeat the key or separate with commas)`,
  };
}

/** The same list in a JSON body: an array of names or one comma-separated string. */
export function bodyList(description: string): Schema {
  return {
    anyOf: [
      { type: 'string', maxLength: 100_000 },
      { type: 'array', items: { type: 'string', maxLength: 4000 }, maxItems: 10_000 },
    ],
    description: `${description}: an array of names or one comma-separated string`,
  };
}

const isoDate = String.raw`\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?)?`;
const durationPart = '\\d+(?:ns|us|µs|ms|mo|s|m|h|d|w|y)';

/** A read-range bound: Unix seconds, ISO 8601, or a negative Flux Duration (range and calendar checked in code). */
export const ReadTime: Schema = {
  type: 'string',
  maxLength: 64,
  pattern: `^(?:-?\\d{1,12}(?:\\.\\d{1,9})?|${isoDate}|-(?:${durationPart})+)$`,
  description: 'Unix seconds, ISO 8601 or a negative Duration like -1h30m',
};

/** `windowPeriod`: seconds or a positive Duration (1 ms .. 3,650 days, checked in code). */
export const WindowPeriod: Schema = {
  type: 'string',
  maxLength: 64,
  pattern: `^(?:\\d{1,12}(?:\\.\\d{1,9})?|(?:${durationPart})+)$`,
  description: 'seconds or a positive Duration like 1m',
};

/** A non-negative integer query parameter (`i`, `l`). */
export const Index: Schema = { type: 'string', pattern: '^\\d{1,9}$', description: 'a non-negative integer' };

/** A finite JSON number (`1e400` parses as Infinity: outside these bounds). */
const Finite: Schema = { type: 'number', minimum: -Number.MAX_VALUE, maximum: Number.MAX_VALUE };

/** A write timestamp: Unix seconds or ISO 8601 (2000-01-01 .. now + 1 day and the calendar checked in code). */
export const WriteTimestamp: Schema = {
  anyOf: [Finite, { type: 'string', maxLength: 64, pattern: `^${isoDate}$` }, { type: 'null' }],
  description: 'Unix seconds (a number) or an ISO 8601 date',
};

export const Scalar: Schema = {
  anyOf: [{ type: 'boolean' }, Finite, { type: 'string' }],
  description: 'a boolean, number or string',
};

export const StateEntry: Schema = {
  type: 'object',
  required: ['channel'],
  properties: {
    channel: { type: 'string', maxLength: 200, description: 'a string' },
    value: Scalar,
    error: {
      type: 'integer',
      minimum: -4095,
      maximum: -1,
      description: 'a negative POSIX error number from -1 to -4095 (e.g. -5 for EIO)',
    },
    timestamp: WriteTimestamp,
  },
};

export const MeasurementEntry: Schema = {
  type: 'object',
  required: ['metric', 'value'],
  properties: {
    metric: { type: 'string', maxLength: 200, description: 'a string' },
    value: {
      anyOf: [{ type: 'boolean' }, Finite, { type: 'string' }, { type: 'object' }],
      description: 'a boolean, number, string or object',
    },
    timestamp: WriteTimestamp,
  },
};

/** The object of a write: everything the route's handler needs is declared; others are ignored. */
export const Empty: Schema = { type: 'object', additionalProperties: false };

export const PropertyValues: Schema = {
  type: 'object',
  propertyNames: { pattern: '^[a-z0-9][a-z0-9_-]+$' },
  additionalProperties: Scalar,
  description: 'property names matching ^[a-z0-9][a-z0-9_-]+$ with boolean, number or string values',
};

const entity = (withKey: boolean): Schema => ({
  type: 'object',
  required: ['uid', 'enabled', 'name', 'displayName', 'link', ...(withKey ? ['key'] : [])],
  properties: {
    uid: { type: 'string' },
    enabled: { type: 'boolean' },
    name: { type: 'string' },
    ...(withKey ? { key: { type: 'string' } } : {}),
    displayName: { type: 'string' },
    link: { type: 'string' },
  },
  additionalProperties: false,
});
export const Device = entity(true);
export const Product = entity(false);
export const Summary: Schema = { ...entity(false), properties: { ...(entity(true)['properties'] as Schema) } };

function record(field: 'channel' | 'metric'): Schema {
  return {
    type: 'object',
    required: [field, 'aggregated', 'entity', 'timestamp'],
    properties: {
      [field]: { type: 'string' },
      value: {},
      error: { type: 'integer' },
      aggregated: { type: 'string', enum: [...Aggregates] },
      entity: { type: 'string' },
      timestamp: { type: 'number' },
    },
    /** Validation only (the serialiser ignores it): exactly one of value and error. */
    oneOf: [{ required: ['value'] }, { required: ['error'] }],
    additionalProperties: false,
  };
}
export const StateRecord = record('channel');
export const MeasurementRecord = record('metric');

export const Properties: Schema = { type: 'object', additionalProperties: Scalar };

export const Channels: Schema = {
  type: 'object',
  required: ['buses', 'channels'],
  properties: {
    buses: { type: 'array', items: { type: 'object', additionalProperties: true } },
    channels: { type: 'array', items: { type: 'object', additionalProperties: true } },
  },
  additionalProperties: false,
};

export const Relations: Schema = {
  type: 'object',
  required: ['parents', 'children'],
  properties: { parents: { type: 'array', items: Summary }, children: { type: 'array', items: Summary } },
  additionalProperties: false,
};

/** RFC 9457 problem details, as every error is answered (decisions 6). */
export const Problem: Schema = {
  type: 'object',
  required: ['type', 'status', 'title', 'detail'],
  properties: {
    type: { type: 'string' },
    status: { type: 'integer', minimum: 400, maximum: 599 },
    title: { type: 'string' },
    detail: { type: 'string' },
  },
  additionalProperties: false,
};

export const LocationSubChannels = LocationFields;

/** Pieces named in the document's `components.schemas`. */
export const components: Readonly<Record<string, Schema>> = {
  Problem,
  Device,
  Product,
  Summary,
  StateRecord,
  MeasurementRecord,
  StateEntry,
  MeasurementEntry,
  Properties,
  PropertyValues,
  Channels,
  Relations,
  ReadTime,
  WindowPeriod,
  WriteTimestamp,
};
