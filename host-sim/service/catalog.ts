/**
 * The entity catalog: products, locations, devices, their properties and the
 * entity tree (spec 2.2-2.5, decisions 7). Seeded from the fixture; mutable
 * parts (device/product details, properties, relations) are snapshotted through
 * `onChange` so that they survive a restart together with the stored data.
 */
import type { Aggregate, JsonObject as WireObject, LastAggregate } from './wire.js';
import type { Fixture, PropertyValue } from './fixture.js';
import { withEveryDeviceProperties } from './firmware/properties.js';

export interface Product {
  kind: 'product';
  uid: string;
  name: string;
  enabled: boolean;
  buses: WireObject[];
  channels: WireObject[];
  /** Channel key to its raw object. */
  channelByKey: Map<string, WireObject>;
  /** Metric key to its aggregates (fixture metrics, then channel keys). */
  metrics: Map<string, { aggregated: Aggregate; aggregatedLast: LastAggregate }>;
}
export interface Location {
  kind: 'location';
  uid: string;
  name: string;
  key: string;
  enabled: boolean;
}
export interface Device {
  kind: 'device';
  uid: string;
  key: string;
  name: string;
  enabled: boolean;
  product: Product;
  properties: Record<string, PropertyValue>;
}
export type Entity = Product | Location | Device;

/**
 * Overwrites the details of `entity` that `values` gives and that differ
 * (spec 4.1: only the given details change); true when one did.
 */
export function setDetails<T extends object>(entity: T, values: { [K in keyof T]?: T[K] | undefined }): boolean {
  let changed = false;
  for (const name of Object.keys(values) as (keyof T)[]) {
    const value = values[name];
    if (value === undefined || entity[name] === value) continue;
    entity[name] = value as T[keyof T];
    changed = true;
  }
  return changed;
}

/** The mutable part of the catalog, as persisted. */
export interface CatalogSnapshot {
  devices: Record<string, { name: string; key: string; enabled: boolean; properties: Record<string, PropertyValue> }>;
  products: Record<string, { name: string; enabled: boolean }>;
  relations: [string, string][];
}

function aggregateOf<T extends string>(raw: WireObject, field: string, fallback: T): T {
  const v = raw[field];
  return typeof v === 'string' ? (v as T) : fallback;
}

function buildProduct(p: Fixture['products'][number]): Product {
  const channelByKey = new Map(p.channels.map((c) => [c['key'] as string, c] as const));
  const metrics: Product['metrics'] = new Map();
  for (const c of p.channels) {
    metrics.set(c['key'] as string, {
      aggregated: aggregateOf<Aggregate>(c, 'aggregated', 'last'),
      aggregatedLast: aggregateOf<LastAggregate>(c, 'aggregatedLast', 'last'),
    });
  }
  for (const m of p.metrics) metrics.set(m.key, { aggregated: m.aggregated, aggregatedLast: m.aggregatedLast });
  return {
    kind: 'product',
    uid: p.uid,
    name: p.name,
    enabled: p.enabled,
    buses: p.buses,
    channels: p.channels,
    channelByKey,
    metrics,
  };
}

export class Catalog {
  readonly entities = new Map<string, Entity>();
  readonly devices: Device[] = [];
  readonly products: Product[] = [];
  readonly locations: Location[] = [];
  /** External key -> device, filled by `deviceByRef`. */
  private readonly byKey = new Map<string, Device>();
  /** child uid -> parent uids; insertion ordered. */
  private readonly parentsOf = new Map<string, Set<string>>();
  /** Called after every mutation (persistence). */
  onChange: () => void = () => undefined;

  constructor(fixture: Fixture) {
    for (const p of fixture.products) this.add(buildProduct(p), this.products);
    for (const l of fixture.locations) this.add({ kind: 'location', enabled: true, ...l }, this.locations);
    for (const d of fixture.devices) {
      const product = this.entities.get(d.product) as Product;
      const device: Device = {
        kind: 'device',
        uid: d.uid,
        key: d.key,
        name: d.name,
        enabled: d.enabled,
        product,
        properties: withEveryDeviceProperties(d.properties),
      };
      this.add(device, this.devices);
      this.link(d.uid, d.product);
    }
    for (const r of fixture.relations) this.link(r.entity, r.parent);
  }

  private add<T extends Entity>(e: T, into: T[]): void {
    this.entities.set(e.uid, e);
    into.push(e);
  }

  /**
   * A device by uid or external key (spec 2.1). Keys found once are kept in
   * `byKey`; a kept entry counts only while the device still has that key
   * (`devices/set` assigns keys), so the map never answers a stale key.
   */
  deviceByRef(ref: string): Device | undefined {
    const byUid = this.entities.get(ref);
    if (byUid?.kind === 'device') return byUid;
    const kept = this.byKey.get(ref);
    if (kept !== undefined && kept.key === ref) return kept;
    const found = this.devices.find((d) => d.key === ref);
    if (this.byKey.size >= 2 * this.devices.length) this.byKey.clear(); // drops keys that changed
    if (found === undefined) this.byKey.delete(ref);
    else this.byKey.set(ref, found);
    return found;
  }

  parents(uid: string): Entity[] {
    return [...(this.parentsOf.get(uid) ?? [])].map((p) => this.entities.get(p)).filter((e): e is Entity => !!e);
  }

  children(uid: string): Entity[] {
    const out: Entity[] = [];
    for (const [child, parents] of this.parentsOf) {
      const e = this.entities.get(child);
      if (parents.has(uid) && e) out.push(e);
    }
    return out;
  }

  hasRelation(entity: string, parent: string): boolean {
    return this.parentsOf.get(entity)?.has(parent) ?? false;
  }

  /** True when `ancestor` is `uid` or above it in the tree. */
  isAncestor(ancestor: string, uid: string): boolean {
    const seen = new Set<string>();
    const walk = (u: string): boolean => {
      if (u === ancestor) return true;
      if (seen.has(u)) return false;
      seen.add(u);
      return [...(this.parentsOf.get(u) ?? [])].some(walk);
    };
    return walk(uid);
  }

  /** Every device at or below `uid` (product, location or device). */
  devicesUnder(uid: string): Device[] {
    return this.devices.filter((d) => this.isAncestor(uid, d.uid));
  }

  link(entity: string, parent: string): void {
    let set = this.parentsOf.get(entity);
    if (!set) this.parentsOf.set(entity, (set = new Set()));
    set.add(parent);
  }

  unlink(entity: string, parent: string): void {
    this.parentsOf.get(entity)?.delete(parent);
  }

  snapshot(): CatalogSnapshot {
    const s: CatalogSnapshot = { devices: {}, products: {}, relations: [] };
    for (const d of this.devices)
      s.devices[d.uid] = { name: d.name, key: d.key, enabled: d.enabled, properties: d.properties };
    for (const p of this.products) s.products[p.uid] = { name: p.name, enabled: p.enabled };
    for (const [child, parents] of this.parentsOf) for (const p of parents) s.relations.push([child, p]);
    return s;
  }

  /** Applies a persisted snapshot; entries for entities the fixture no longer has are ignored. */
  restore(s: CatalogSnapshot): void {
    for (const d of this.devices) {
      Object.assign(d, s.devices[d.uid] ?? {});
      d.properties = withEveryDeviceProperties(d.properties);
    }
    for (const p of this.products) Object.assign(p, s.products[p.uid] ?? {});
    this.parentsOf.clear();
    for (const [child, parent] of s.relations) {
      if (this.entities.has(child) && this.entities.has(parent)) this.link(child, parent);
    }
    for (const d of this.devices) this.link(d.uid, d.product.uid); // a device's product is always its parent
  }
}
