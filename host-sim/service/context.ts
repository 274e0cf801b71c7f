/**
 * What every endpoint group and the hub share: the catalog, the storage, the
 * tokens, the clock and the hub's notifier. Built once by `startService`.
 */
import type { Catalog, Device } from './catalog.js';
import type { TokenTable } from './auth.js';
import type { Storage } from './store/storage.js';

/** Pushes `Notify` to the hub connections that may see a device (decisions 5). */
export interface Notifier {
  /** `except` is a connection that must not receive it (the invoker of SetProperties). */
  notify(device: Device, argument: Record<string, unknown>, except?: unknown): void;
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
