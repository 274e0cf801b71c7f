/**
 * Firmware updates in the fleet (the rollout scenario, rollout.ts): what a
 * device needs to update itself, and the updater of one of its lives, built
 * as src/ota/updater.ts's header says: the device's clock, HTTP transport,
 * store and service client, its simulated boot slots (sim-slots.ts, kept over
 * restarts like the store), and the node:crypto image check of the fleet's key.
 */
import type { ServiceClient } from '../../src/service/client.js';
import type { ImageCheck } from '../../src/ota/ports.js';
import { Updater } from '../../src/ota/updater.js';
import type { Clock, HttpTransport, KeyValueStore, Logger } from '../../src/ports.js';
import type { RetryPolicy } from '../../src/retry/backoff.js';
import type { SimSlots } from './sim-slots.js';

/** What a device needs to update itself (rollout.ts). */
export interface FleetUpdates {
  /** The version every device runs at first. */
  version: string;
  /** The version of a published image, by its SHA-256 (hex). */
  identify(sha256: string): string | undefined;
  /** A new check of an image (SHA-256 and signature against the fleet's key). */
  check: () => ImageCheck;
  retry?: RetryPolicy;
  trialMs?: number;
}

export interface LifeParts {
  clock: Clock;
  http: HttpTransport;
  store: KeyValueStore;
  logger: Logger;
  client: ServiceClient;
  slots: SimSlots;
}

/** The updater of one life of a device; it runs the version its slots boot. */
export function lifeUpdater(updates: FleetUpdates, p: LifeParts): Updater {
  return new Updater({
    clock: p.clock,
    http: p.http,
    store: p.store,
    logger: p.logger,
    client: p.client,
    running: p.slots.version,
    image: { slots: p.slots, check: updates.check },
    ...(updates.retry === undefined ? {} : { retry: updates.retry }),
    ...(updates.trialMs === undefined ? {} : { trialMs: updates.trialMs }),
  });
}
