/**
 * What an agent is given: the host's capabilities through the ports, the
 * service to talk to, the channel providers, and the tunables with their
 * defaults (`AgentCoreOptions`, agent-core.ts); an `Agent` (agent.ts) also
 * takes the display hooks.
 */
import type { Clock, HttpTransport, KeyValueStore, Logger } from '../ports.js';
import type { BatchOptions } from '../report/batcher.js';
import type { OutboxOptions } from '../report/outbox-options.js';
import type { RetryPolicy } from '../retry/backoff.js';
import type { ServiceAccess } from '../service/client.js';
import type { ChannelDriverProvider, Sample, Value } from './driver.js';
import type { Properties } from './properties.js';

export interface AgentCoreOptions {
  clock: Clock;
  http: HttpTransport;
  store: KeyValueStore;
  logger: Logger;
  service: ServiceAccess;
  providers: readonly ChannelDriverProvider[];
  outbox?: Partial<OutboxOptions>;
  batch?: Partial<BatchOptions>;
  /** Delivery and configuration retry policy. Default fullJitter (1 s .. 60 s). */
  retry?: RetryPolicy;
  /** Records held while the wall time is unknown. Default 2000. */
  maxHeld?: number;
  /** Wait after 401/403 (and a configuration read answered 404), ms. Default 300000. */
  authRetryMs?: number;
  /**
   * The service refused the token (401, 403) or does not know the device (404) when the configuration was
   * read: called once until a read succeeds (a host may end its run: `--exit-on-auth-failure`).
   */
  onRefused?: (status: number) => void;
  /**
   * Configuration refresh period, ms; each wait is [0.75, 1] x it (jitter). 0: off. Default 300000.
   * `Agent` throws a RangeError below 0 (the firmware's core, which is given none, takes it as off).
   */
  configRefreshMs?: number;
  /** A `.desired` dated beyond the device's time + this is a clock fault (decisions 8), ms. Default 60000. */
  desiredToleranceMs?: number;
  /** Uniform random in [0, 1) for the refresh jitter. Default Math.random. */
  random?: () => number;
  /**
   * The device's property set, where an application reads it (the Node target): read at
   * start and on each configuration read, updated from the hub. Absent: properties are
   * neither read nor kept (the firmware, where no code reads them).
   */
  properties?: Properties;
}

/** The core's options and the display hooks of a host (agent.ts). */
export interface AgentOptions extends AgentCoreOptions {
  /** Sees every reported channel sample (displays, tests). The sample object may be reused: copy it. */
  onReport?: (key: string, sample: Sample) => void;
  /** Sees every sample after scaling, reported or not (displays). Same caveat. */
  onSample?: (key: string, sample: Sample) => void;
  /** Sees every desired value applied (or refused) and its echo; the echo also reaches `onReport`. */
  onDesired?: (key: string, value: Value, echo: Sample) => void;
}
