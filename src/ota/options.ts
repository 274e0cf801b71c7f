/**
 * What an Updater (updater.ts) is given: the host's ports, the version it runs,
 * and the tunables with their defaults (`updaterDefaults`). The defaults fit a
 * board: a 4 KiB chunk is one small allocation beside the outbox's batches
 * (docs/moddable.md, heap); 8 failures in a row span at most about 2 minutes
 * of full-jitter backoff (1 s doubling to a 60 s cap); 5 minutes of trial cover
 * a hub connect after the configuration read with its retries.
 */
import type { Clock, HttpTransport, KeyValueStore, Logger } from '../ports.js';
import type { RetryPolicy } from '../retry/backoff.js';
import type { ServiceClient } from '../service/client.js';
import type { ImagePorts } from './ports.js';
import type { StatusOptions } from './status.js';

export interface UpdaterOptions {
  clock: Clock;
  /** The transport images are downloaded over (binary answers). */
  http: HttpTransport;
  store: KeyValueStore;
  logger: Logger;
  /** The device's service client: properties/get and properties/set with its token. */
  client: ServiceClient;
  /** The version this build runs (reported as `fw-running`). */
  running: string;
  /** Absent where the host cannot install images: an update is reported `unsupported`. */
  image?: ImagePorts | undefined;
  /** Bytes per download request. Default 4096. */
  chunkBytes?: number;
  /** Failed requests in a row before a download fails. Default 8. */
  maxAttempts?: number;
  /** Default fullJitter (1 s .. 60 s). */
  retry?: RetryPolicy;
  /** Time the new image has to deliver a batch and connect to the hub, ms. Default 300000. */
  trialMs?: number;
  status?: StatusOptions;
}

/** The tunables' defaults. */
export const updaterDefaults = {
  chunkBytes: 4096,
  maxAttempts: 8,
  trialMs: 300_000,
} as const;
