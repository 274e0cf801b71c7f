/**
 * Resolving the identifier parameters of spec 4: `device` (UUID or External
 * key) or `entity` (UUID), mutually exclusive, and their list forms
 * `devices`/`entities` for reads, with the token's scope applied (decisions 7);
 * and the list rules of `devices/list` and `products/list` (decisions 6).
 */
import { requireDevice, type Principal } from '../auth.js';
import type { Catalog, Device, Entity } from '../catalog.js';
import { badRequest, forbidden, notFound } from '../errors.js';
import { exclusive, exclusiveLists, optIndex, type Params } from '../http/query.js';

function entityOf(catalog: Catalog, uid: string, param: string): Entity {
  const e = catalog.entities.get(uid);
  if (!e) throw notFound(`${param}: unknown entity "${uid}"`);
  return e;
}

/** The one 403 a device token gets for any device but its own, known or not (decisions 10: no enumeration). */
export function notOwnDevice(param: string): Error {
  return forbidden(`${param}: a device token may not name another device (known or not)`);
}

/**
 * For a device token, its own device when `ref` (uid or external key) names
 * it, otherwise the uniform 403, whether `ref` exists or not. Admin: undefined.
 */
function ownDeviceOf(catalog: Catalog, principal: Principal, ref: string, param: string): Device | undefined {
  if (principal.role !== 'device') return undefined;
  const own = catalog.entities.get(principal.device);
  if (own?.kind !== 'device' || (ref !== own.uid && ref !== own.key)) throw notOwnDevice(param);
  return own;
}

/** One device from `device` or `entity` (a Device Unique ID); 400 when neither, 404 when unknown, 403 out of scope. */
export function resolveDevice(catalog: Catalog, params: Params, principal: Principal): Device {
  const id = exclusive(params, 'device', 'entity');
  if (!id) throw badRequest('device or entity is required');
  const own = ownDeviceOf(catalog, principal, id.value, id.name);
  if (own !== undefined) {
    if (id.name === 'entity' && id.value !== own.uid) throw notOwnDevice(id.name); // an entity is a uid, not a key
    return own;
  }
  let device: Device | undefined;
  if (id.name === 'device') {
    device = catalog.deviceByRef(id.value);
    if (!device) throw notFound(`device: unknown device "${id.value}"`);
  } else {
    const e = entityOf(catalog, id.value, 'entity');
    if (e.kind !== 'device') throw badRequest(`entity: "${id.value}" is a ${e.kind}, expected a device`);
    device = e;
  }
  requireDevice(principal, device.uid);
  return device;
}

/** Any entity by uid from `param`; 400 when missing, 404 when unknown. */
export function resolveEntity(catalog: Catalog, params: Params, param: string): Entity {
  const uid = params.string(param);
  if (uid === undefined) throw badRequest(`${param} is required`);
  return entityOf(catalog, uid, param);
}

function scoped(devices: Device[], principal: Principal): Device[] {
  if (principal.role === 'device' && devices.some((d) => d.uid !== principal.device)) {
    throw forbidden('this token belongs to another device: a device token may read only its own');
  }
  return devices;
}

/**
 * The devices a read addresses: `single` = `device`/`entity` (read/last) or
 * `devices`/`entities` (read). Entities are Product, Location or Device UIDs and
 * expand to every device below them. Neither: every device the token may see.
 */
export function resolveReadDevices(catalog: Catalog, params: Params, principal: Principal, single: boolean): Device[] {
  const [a, b] = single ? ['device', 'entity'] : ['devices', 'entities'];
  const id = single ? exclusive(params, a as string, b as string) : exclusiveLists(params, a as string, b as string);
  if (!id) {
    if (principal.role === 'device') return catalog.devices.filter((d) => d.uid === principal.device);
    return [...catalog.devices];
  }
  const values = 'values' in id ? id.values : [id.value];
  const out = new Map<string, Device>();
  for (const v of values) {
    if (principal.role === 'device') {
      // Its own device, or an entity holding only it; anything else (unknown included) is the one 403.
      if (id.name === a) ownDeviceOf(catalog, principal, v, id.name);
      const e = id.name === a ? catalog.entities.get(principal.device) : catalog.entities.get(v);
      const under = e === undefined ? [] : e.kind === 'device' ? [e] : catalog.devicesUnder(e.uid);
      if (under.length === 0 || under.some((d) => d.uid !== principal.device)) throw notOwnDevice(id.name);
      for (const d of under) out.set(d.uid, d);
    } else if (id.name === a) {
      const d = catalog.deviceByRef(v);
      if (!d) throw notFound(`${a}: unknown device "${v}"`);
      out.set(d.uid, d);
    } else {
      const e = entityOf(catalog, v, b as string);
      for (const d of e.kind === 'device' ? [e] : catalog.devicesUnder(e.uid)) out.set(d.uid, d);
    }
  }
  return scoped([...out.values()], principal);
}

/**
 * Lists (decisions 6): optional parent `entity` (every entity below it), `q` as a
 * case-insensitive substring of name, key or a parent's name, ordered by name
 * then uid, then `i` offset and `l` limit.
 */
export function listEntities<T extends Entity>(catalog: Catalog, params: Params, all: readonly T[]): T[] {
  const parent = params.string('entity');
  const q = params.string('q')?.toLowerCase();
  const offset = optIndex(params, 'i') ?? 0;
  const limit = optIndex(params, 'l');
  let items = [...all];
  if (parent !== undefined) {
    if (!catalog.entities.has(parent)) throw notFound(`entity: unknown entity "${parent}"`);
    items = items.filter((e) => e.uid !== parent && catalog.isAncestor(parent, e.uid));
  }
  if (q !== undefined && q !== '') {
    const hit = (s: string | undefined): boolean => s !== undefined && s.toLowerCase().includes(q);
    items = items.filter(
      (e) => hit(e.name) || hit('key' in e ? e.key : undefined) || catalog.parents(e.uid).some((pe) => hit(pe.name)),
    );
  }
  items.sort((x, y) => (x.name < y.name ? -1 : x.name > y.name ? 1 : x.uid < y.uid ? -1 : x.uid > y.uid ? 1 : 0));
  return items.slice(offset, limit === undefined ? undefined : offset + limit);
}
