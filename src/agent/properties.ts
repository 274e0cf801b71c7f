/**
 * The device's properties (spec 2.5): a flat object of booleans, numbers and
 * strings, read at start (`properties/get`), updated from the hub (decisions 5:
 * a `properties` Notify carries the changed ones, a SetProperties result the
 * whole set), cached in the store for offline boots, and announced to the
 * application through listeners (each wrapped: a throwing listener is logged).
 *
 * Kept only where an application reads them: a host plugs a Properties into
 * `AgentOptions.properties` (the Node target does). The firmware does not: no code
 * on a board reads properties, so it neither asks for them nor stores them.
 */
import { isObject } from '../reader.js';
import { AgentError, logFailure, warn } from '../errors.js';
import type { KeyValueStore, Logger } from '../ports.js';
import type { ServiceClient } from '../service/client.js';
import { Paths, PropertyNamePattern } from '../wire.js';
import type { Value } from './driver.js';

export type PropertyValues = Readonly<Record<string, Value>>;
export type PropertiesListener = (values: PropertyValues, changed: PropertyValues) => void;

const storeKey = 'agent/properties';

/** Validates a properties object from the wire; entries with a bad name or value are skipped (named). */
export function parseProperties(body: unknown): { values: Record<string, Value>; skipped: string[] } {
  if (!isObject(body)) throw new AgentError('wire.invalid', 'properties: not an object');
  const values: Record<string, Value> = {};
  const skipped: string[] = [];
  for (const [name, v] of Object.entries(body)) {
    const ok = typeof v === 'boolean' || typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v));
    if (ok && PropertyNamePattern.test(name)) values[name] = v;
    else skipped.push(name);
  }
  return { values, skipped };
}

export class Properties {
  #current: Record<string, Value> = {};
  readonly #listeners: PropertiesListener[] = [];
  readonly #store: KeyValueStore;
  readonly #logger: Logger;

  constructor(store: KeyValueStore, logger: Logger) {
    this.#store = store;
    this.#logger = logger;
    try {
      const cached = store.get(storeKey);
      if (cached !== undefined) this.#current = parseProperties(JSON.parse(cached) as unknown).values;
    } catch (e) {
      logFailure(logger, 'warn', 'cached properties unreadable', e, { key: storeKey });
    }
  }

  get values(): PropertyValues {
    return this.#current;
  }

  onChange(listener: PropertiesListener): void {
    this.#listeners.push(listener);
  }

  /** Merges (or, with `replace`, replaces) and tells the listeners what changed. */
  update(values: PropertyValues, replace: boolean): void {
    const before = this.#current;
    const next: Record<string, Value> = replace ? {} : { ...before };
    const changed: Record<string, Value> = {};
    let count = 0;
    for (const [name, v] of Object.entries(values)) {
      next[name] = v;
      if (before[name] === v) continue;
      changed[name] = v;
      count++;
    }
    // With `replace`, a property that is gone is a change too.
    if (replace) for (const name in before) if (!(name in next)) count++;
    this.#current = next;
    try {
      this.#store.set(storeKey, JSON.stringify(next));
    } catch {
      warn(this.#logger, 'properties: not cached');
    }
    if (count === 0) return;
    for (const listener of this.#listeners) {
      try {
        listener(next, changed);
      } catch (e) {
        logFailure(this.#logger, 'error', 'properties: listener threw', e);
      }
    }
  }

  /** Reads `properties/get`, which replaces the set. A failure is logged: the cached set stays. */
  async read(client: ServiceClient): Promise<void> {
    try {
      const { values, skipped } = parseProperties(await client.ofDevice(Paths.propertiesGet));
      if (skipped.length > 0) warn(this.#logger, 'properties: skipped', { names: skipped.join() });
      this.update(values, true);
    } catch (e) {
      logFailure(this.#logger, 'warn', 'properties: not read', e);
    }
  }
}
