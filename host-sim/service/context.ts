/**
 * What every endpoint group and the hub share: the catalog, the storage, the
 * tokens, the clock and the hub's notifier. Built once by `startService`; the
 * catalog's mutable part is restored from, and saved to, the storage.
 */
import { TokenTable } from './auth.js';
import { Catalog, type CatalogSnapshot, type Device } from './catalog.js';
import type { Fixture } from './fixture.js';
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

export interface ServiceContext {
  catalog: Catalog;
  storage: Storage;
  tokens: TokenTable;
  notifier: Notifier;
  /** Unix ms; all server time goes through it. */
  now: () => number;
  log: (line: string) => void;
  /** Persists the catalog's mutable part after a change. */
  saveCatalog(): void;
}

/** Seeds the catalog from the fixture, then applies what the storage kept from an earlier run. */
export function createContext(
  fixture: Fixture,
  storage: Storage,
  now: () => number,
  log: (line: string) => void,
): ServiceContext {
  const catalog = new Catalog(fixture);
  const saved = storage.loadCatalog();
  if (saved !== undefined) {
    catalog.restore(JSON.parse(saved) as CatalogSnapshot);
    log('service: catalog changes restored from the database');
  }
  return {
    catalog,
    storage,
    tokens: new TokenTable(fixture.tokens),
    // Replaced by the hub once it exists.
    notifier: { notify: () => undefined, observe: () => undefined },
    now,
    log,
    saveCatalog: () => storage.saveCatalog(JSON.stringify(catalog.snapshot())),
  };
}
