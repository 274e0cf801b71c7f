/**
 * Response shapes of entities (spec 2.2-2.4, decisions 6): devices, products
 * and entity summaries, with `displayName` and `link`
 * (`<base_url>/admin/<devices|products|locations>/<uid>`).
 */
import type { Device, Entity, Location, Product } from '../catalog.js';

export interface DeviceView {
  uid: string;
  enabled: boolean;
  name: string;
  key: string;
  displayName: string;
  link: string;
}
export interface ProductView {
  uid: string;
  enabled: boolean;
  name: string;
  displayName: string;
  link: string;
}
export interface SummaryView {
  uid: string;
  enabled: boolean;
  name: string;
  key?: string;
  displayName: string;
  link: string;
}

const plural = { device: 'devices', product: 'products', location: 'locations' } as const;

export function linkOf(baseUrl: string, e: Entity): string {
  return `${baseUrl}/admin/${plural[e.kind]}/${e.uid}`;
}

export function deviceView(d: Device, baseUrl: string): DeviceView {
  return {
    uid: d.uid,
    enabled: d.enabled,
    name: d.name,
    key: d.key,
    displayName: `${d.name} (${d.key})`,
    link: linkOf(baseUrl, d),
  };
}

export function productView(p: Product, baseUrl: string): ProductView {
  return { uid: p.uid, enabled: p.enabled, name: p.name, displayName: p.name, link: linkOf(baseUrl, p) };
}

/** An entity summary (spec 2.4). Products have no External key, so `key` is absent for them. */
export function summaryView(e: Entity, baseUrl: string): SummaryView {
  if (e.kind === 'product') return productView(e, baseUrl);
  const l: Device | Location = e;
  return {
    uid: l.uid,
    enabled: l.enabled,
    name: l.name,
    key: l.key,
    displayName: `${l.name} (${l.key})`,
    link: linkOf(baseUrl, l),
  };
}
