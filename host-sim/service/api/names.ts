/**
 * State channel names and metric keys (spec 2.6-2.7): the plain form
 * `<key>.desired|reported`, the location form `<key>.<lat|lon|...>.desired|reported`,
 * the wildcard `*.desired|reported` for reads, and metric keys. Each request
 * name is checked against the products in scope; unknown names are a 400.
 */
import type { Product } from '../catalog.js';
import { badRequest } from '../errors.js';
import { LocationFields } from '../wire.js';

export type Side = 'desired' | 'reported';
export interface StateName {
  /** The stored name, e.g. `gps.lat.reported`. */
  name: string;
  key: string;
  /** The location field (`lat`, ...) of the location form. */
  sub: string | undefined;
  side: Side;
}

const statePattern = /^([^.\s:*]+)(?:\.([a-z]+))?\.(desired|reported)$/;

/** Parses and checks a state channel name against a product (writes). Throws 400. */
export function parseStateName(text: string, product: Product, field: string): StateName {
  const m = statePattern.exec(text);
  if (!m) throw badRequest(`${field}: "${text}" is not <key>.desired, <key>.reported or the location form`);
  const [, key, sub, side] = m as unknown as [string, string, string | undefined, Side];
  const channel = product.channelByKey.get(key);
  if (!channel) throw badRequest(`${field}: unknown channel "${key}" for product "${product.name}"`);
  if (sub !== undefined) {
    if (channel['type'] !== 'location') throw badRequest(`${field}: "${key}" is not a location channel`);
    if (!(LocationFields as readonly string[]).includes(sub)) {
      throw badRequest(`${field}: "${sub}" is not one of ${LocationFields.join(', ')}`);
    }
  }
  return { name: text, key, sub, side };
}

/** A read selection: explicit names plus wildcard sides; `all` when nothing was asked. */
export interface Selection {
  all: boolean;
  names: string[];
  sides: Side[];
}

/** The `channels` of a state read, checked against the products in scope. */
export function stateSelection(list: string[] | undefined, products: readonly Product[]): Selection {
  if (list === undefined) return { all: true, names: [], sides: [] };
  const sel: Selection = { all: false, names: [], sides: [] };
  for (const text of list) {
    if (text === '*.desired' || text === '*.reported') {
      sel.sides.push(text.slice(2) as Side);
      continue;
    }
    let error: unknown;
    const ok = products.some((p) => {
      try {
        parseStateName(text, p, 'channels');
        return true;
      } catch (e) {
        error = e;
        return false;
      }
    });
    if (!ok) throw error ?? badRequest(`channels: unknown channel "${text}"`);
    sel.names.push(text);
  }
  return sel;
}

/** The `metrics` of a measurement read, checked against the products in scope. */
export function metricSelection(list: string[] | undefined, products: readonly Product[]): Selection {
  if (list === undefined) return { all: true, names: [], sides: [] };
  for (const key of list) {
    if (!products.some((p) => p.metrics.has(key))) throw badRequest(`metrics: unknown metric "${key}"`);
  }
  return { all: false, names: list, sides: [] };
}

/** The concrete stored names of a selection for one device; `null` means every series. */
export function concreteNames(sel: Selection, stored: () => string[]): string[] | null {
  if (sel.all) return null;
  if (sel.sides.length === 0) return sel.names;
  const out = new Set(sel.names);
  for (const n of stored()) if (sel.sides.some((s) => n.endsWith(`.${s}`))) out.add(n);
  return [...out];
}
