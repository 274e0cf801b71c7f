/**
 * What every endpoint group and the hub share: the catalog, the storage, the
 * tokens, the limits, the clock, the counters and the hub's notifier. Built once
 * by `startService`; the catalog's changes are restored from the storage's rows
 * and each change writes its own rows (decisions 10).
 */
import { TokenTable } from './auth.js';
import { Catalog, type Device, type Product } from './catalog.js';
import type { Fixture, PropertyValue } from './fixture.js';
import type { ServiceLimits } from './limits.js';
import type { Storage } from './store/storage.js';

/** Pushes `Notify` to the hub connections that may see a device (decisions 5). */
export interface Notifier {
  /** `except` is a connection that must not receive it (the invoker of SetProperties). */
  notify(device: Device, argument: Record<string, unknown>, except?: unknown): void;
  /**
   * Pushes to observing connections only (the dashboard's, opened with `observe=1`):
   * `.reported` states and measurements, which agents do not need. `argument`
   * is built only when such a connection may see the device (most writes have
   * no observer, and their records need not be built).
   */
  observe(device: Device, argument: () => Record<string, unknown>): void;
}

/** Counts the `/metrics` endpoint reports beyond requests (records written by kind). */
export interface WriteCounter {
  recordsWritten(kind: 'states' | 'measurements', count: number): void;
}

export interface ServiceContext {
  catalog: Catalog;
  storage: Storage;
  tokens: TokenTable;
  limits: ServiceLimits;
  notifier: Notifier;
  counters: WriteCounter;
  /** Unix ms; all server time goes through it. */
  now: () => number;
  log: (line: string) => void;
  /** Persists a device's details (its row only). */
  saveDevice(device: Device): void;
  /** Persists a product's details (its row only). */
  saveProduct(product: Product): void;
  /** Persists the given properties of a device (their rows only). */
  saveProperties(device: Device, values: Readonly<Record<string, PropertyValue>>): void;
  /** Persists one relation inserted (`present`) or deleted. */
  saveRelation(entity: string, parent: string, present: boolean): void;
}

/** Seeds the catalog from the fixture, then applies the changes the storage kept from an earlier run. */
export function createContext(
  fixture: Fixture,
  storage: Storage,
  limits: ServiceLimits,
  now: () => number,
  log: (line: string) => void,
): ServiceContext {
  const catalog = new Catalog(fixture);
  const rows = storage.catalog.load();
  if (rows.devices.size + rows.products.size + rows.properties.size + rows.relations.length > 0) {
    catalog.restore(rows);
    log('service: catalog changes restored from the database');
  }
  const store = storage.catalog;
  return {
    catalog,
    storage,
    tokens: new TokenTable(fixture.tokens),
    limits,
    // Replaced by the hub once it exists.
    notifier: { notify: () => undefined, observe: () => undefined },
    // Replaced by the metrics once they exist.
    counters: { recordsWritten: () => undefined },
    now,
    log,
    saveDevice: (d) => store.saveDevice(d.uid, { name: d.name, key: d.key, enabled: d.enabled }),
    saveProduct: (p) => store.saveProduct(p.uid, { name: p.name, enabled: p.enabled }),
    saveProperties: (d, values) => store.saveProperties(d.uid, values),
    saveRelation: (entity, parent, present) => store.saveRelation(entity, parent, present),
  };
}
