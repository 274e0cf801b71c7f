/**
 * The local service's seed file (decisions.md section 7): products with their
 * buses, channels and metrics, locations, devices with properties, relations
 * and tokens. `validateFixture` turns `unknown` JSON into a `Fixture` or throws
 * ServiceError `config` naming the offending field by its path.
 *
 * Channels and buses are kept as raw objects: `channels/list` serves them as
 * written, so a fixture may carry deliberately bad channels for agent tests.
 * Only what the service itself relies on (uid, key, aggregates) is checked.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { isServiceError, ServiceError } from './errors.js';
import {
  Aggregates,
  isObject,
  LastAggregates,
  PropertyNamePattern,
  type Aggregate,
  type JsonObject as WireObject,
  type LastAggregate,
} from './wire.js';

/** The demo fixture in the source tree (this module runs from build/host-sim/service). */
export const demoFixturePath = fileURLToPath(new URL('../../../host-sim/service/fixtures/demo.json', import.meta.url));

export type PropertyValue = boolean | number | string;
export interface FixtureMetric {
  key: string;
  aggregated: Aggregate;
  aggregatedLast: LastAggregate;
}
export interface FixtureProduct {
  uid: string;
  name: string;
  enabled: boolean;
  buses: WireObject[];
  /** Raw channel objects; `uid` and `key` are guaranteed strings. */
  channels: WireObject[];
  metrics: FixtureMetric[];
}
export interface FixtureLocation {
  uid: string;
  name: string;
  key: string;
}
export interface FixtureDevice {
  uid: string;
  key: string;
  name: string;
  enabled: boolean;
  product: string;
  properties: Record<string, PropertyValue>;
}
export interface FixtureRelation {
  entity: string;
  parent: string;
}
export type FixtureToken = { token: string; role: 'admin' } | { token: string; role: 'device'; device: string };
export interface Fixture {
  products: FixtureProduct[];
  locations: FixtureLocation[];
  devices: FixtureDevice[];
  relations: FixtureRelation[];
  tokens: FixtureToken[];
}

function fail(field: string, expected: string, value: unknown): never {
  const shown = value === undefined ? 'missing' : JSON.stringify(value);
  throw new ServiceError('config', `${field}: expected ${expected}, got ${shown}`);
}
function asObject(value: unknown, field: string): WireObject {
  if (!isObject(value)) fail(field, 'an object', value);
  return value;
}
function asArray(value: unknown, field: string): readonly unknown[] {
  if (!Array.isArray(value)) fail(field, 'an array', value);
  return value;
}
function reqString(o: WireObject, field: string): string {
  const v = o[field];
  if (typeof v !== 'string') fail(field, 'a string', v);
  return v;
}
function optBoolean(o: WireObject, field: string): boolean | undefined {
  const v = o[field];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'boolean') fail(field, 'a boolean', v);
  return v;
}
function optEnum<T extends string>(o: WireObject, field: string, values: readonly T[]): T | undefined {
  const v = o[field];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string' || !(values as readonly string[]).includes(v))
    fail(field, `one of ${values.join(', ')}`, v);
  return v as T;
}

/** Runs `read` and prefixes any validation error with the JSON path `path`. */
function at<T>(path: string, read: () => T): T {
  try {
    return read();
  } catch (e) {
    if (!isServiceError(e)) throw e;
    throw new ServiceError('config', path === '' ? e.message : `${path}.${e.message}`);
  }
}

function list<T>(o: WireObject, field: string, item: (v: WireObject) => T): T[] {
  const raw = o[field] === undefined ? [] : asArray(o[field], field);
  return raw.map((v, i) => at(`${field}[${i}]`, () => item(asObject(v, 'value'))));
}

function product(o: WireObject): FixtureProduct {
  const channels = list(o, 'channels', (c) => (reqString(c, 'uid'), reqString(c, 'key'), c));
  const metrics = list(o, 'metrics', (m) => ({
    key: reqString(m, 'key'),
    aggregated: optEnum(m, 'aggregated', Aggregates) ?? 'last',
    aggregatedLast: optEnum(m, 'aggregatedLast', LastAggregates) ?? 'last',
  }));
  for (const c of channels) {
    optEnum(c, 'aggregated', Aggregates);
    optEnum(c, 'aggregatedLast', LastAggregates);
  }
  return {
    uid: reqString(o, 'uid'),
    name: reqString(o, 'name'),
    enabled: optBoolean(o, 'enabled') ?? true,
    buses: list(o, 'buses', (b) => b),
    channels,
    metrics,
  };
}

function properties(o: WireObject): Record<string, PropertyValue> {
  const out: Record<string, PropertyValue> = {};
  if (o['properties'] === undefined) return out;
  for (const [name, value] of Object.entries(asObject(o['properties'], 'properties'))) {
    if (!PropertyNamePattern.test(name)) throw new ServiceError('config', `properties.${name}: bad name`);
    if (typeof value !== 'boolean' && typeof value !== 'string' && typeof value !== 'number') {
      throw new ServiceError('config', `properties.${name}: expected a boolean, number or string`);
    }
    out[name] = value;
  }
  return out;
}

function token(o: WireObject): FixtureToken {
  const role = optEnum(o, 'role', ['admin', 'device'] as const);
  if (role === undefined) throw new ServiceError('config', 'role: expected one of admin, device');
  if (role === 'admin') return { token: reqString(o, 'token'), role };
  return { token: reqString(o, 'token'), role, device: reqString(o, 'device') };
}

/** Checks cross references: every uid unique, every reference resolves. */
function crossCheck(f: Fixture): void {
  const uids = new Set<string>();
  const add = (path: string, uid: string): void => {
    if (uids.has(uid)) throw new ServiceError('config', `fixture ${path}.uid: duplicate "${uid}"`);
    uids.add(uid);
  };
  f.products.forEach((p, i) => add(`products[${i}]`, p.uid));
  f.locations.forEach((l, i) => add(`locations[${i}]`, l.uid));
  f.devices.forEach((d, i) => add(`devices[${i}]`, d.uid));
  const keys = new Set<string>();
  f.devices.forEach((d, i) => {
    if (!f.products.some((p) => p.uid === d.product)) {
      throw new ServiceError('config', `fixture devices[${i}].product: unknown product "${d.product}"`);
    }
    if (keys.has(d.key)) throw new ServiceError('config', `fixture devices[${i}].key: duplicate "${d.key}"`);
    keys.add(d.key);
  });
  f.relations.forEach((r, i) => {
    for (const field of ['entity', 'parent'] as const) {
      if (!uids.has(r[field])) {
        throw new ServiceError('config', `fixture relations[${i}].${field}: unknown entity "${r[field]}"`);
      }
    }
  });
  f.tokens.forEach((t, i) => {
    if (t.role === 'device' && !f.devices.some((d) => d.uid === t.device)) {
      throw new ServiceError('config', `fixture tokens[${i}].device: unknown device "${t.device}"`);
    }
  });
}

/** Validates parsed fixture JSON; throws ServiceError `config` naming the field by its path. */
export function validateFixture(value: unknown): Fixture {
  try {
    return readFixture(value);
  } catch (e) {
    if (!isServiceError(e)) throw e;
    throw new ServiceError('config', e.message.startsWith('fixture') ? e.message : `fixture ${e.message}`);
  }
}

function readFixture(value: unknown): Fixture {
  const o = at('', () => asObject(value, '(root)'));
  const f: Fixture = {
    products: list(o, 'products', product),
    locations: list(o, 'locations', (l) => ({
      uid: reqString(l, 'uid'),
      name: reqString(l, 'name'),
      key: reqString(l, 'key'),
    })),
    devices: list(o, 'devices', (d) => ({
      uid: reqString(d, 'uid'),
      key: reqString(d, 'key'),
      name: reqString(d, 'name'),
      enabled: optBoolean(d, 'enabled') ?? true,
      product: reqString(d, 'product'),
      properties: properties(d),
    })),
    relations: list(o, 'relations', (r) => ({ entity: reqString(r, 'entity'), parent: reqString(r, 'parent') })),
    tokens: list(o, 'tokens', token),
  };
  crossCheck(f);
  return f;
}

/** Reads and validates a fixture file; errors name the file. */
export function loadFixture(path: string): Fixture {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new ServiceError('config', `fixture ${path}: cannot read (${(e as Error).message})`, { cause: e });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new ServiceError('config', `fixture ${path}: not JSON (${(e as Error).message})`, { cause: e });
  }
  return validateFixture(json);
}
