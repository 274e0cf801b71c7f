/**
 * The trial of a new image (docs/ota.md "Trial and rollback"). Before the
 * restart into a new image the updater stores which update it installed
 * (`ota/pending`: version and id). At the next start `checkBoot` reads it
 * against the boot slots: the running image on trial is the new one (`trial`);
 * a valid image of another version means the bootloader (or our rollback)
 * returned to the previous image (`rolled-back`); a valid image of that
 * version was confirmed before the record was cleared (`confirmed`).
 *
 * On trial the image confirms itself once it has delivered a batch of records
 * (a 2xx answer to `states/write` or `measurements/write`, seen by
 * `watchDelivery`) and connected to the hub, both within `trialMs` of the start
 * (default 5 minutes); otherwise it rolls back (`BootSlots.rollback`: the
 * previous image starts and reports `rolled-back`).
 */
import { info, logFailure } from '../errors.js';
import type { Clock, HttpTransport, KeyValueStore, Logger, TimerHandle } from '../ports.js';
import { Paths } from '../wire.js';
import type { BootSlots } from './ports.js';

/** The update being tried, kept across the restart. */
export interface PendingUpdate {
  version: string;
  id: string;
}

export const pendingKey = 'ota/pending';

export function readPending(store: KeyValueStore): PendingUpdate | undefined {
  try {
    const o = JSON.parse(store.get(pendingKey) ?? 'null') as unknown;
    const { version, id } = (typeof o === 'object' && o !== null ? o : {}) as Record<string, unknown>;
    return typeof version === 'string' && typeof id === 'string' ? { version, id } : undefined;
  } catch {
    return undefined;
  }
}

export type BootOutcome = 'trial' | 'rolled-back' | 'confirmed' | 'none';

/** What the start after an update is: see the header. */
export function checkBoot(store: KeyValueStore, slots: BootSlots, running: string): BootOutcome {
  const pending = readPending(store);
  if (pending === undefined) return slots.state() === 'trial' ? 'trial' : 'none';
  if (slots.state() === 'trial') return 'trial';
  return pending.version === running ? 'confirmed' : 'rolled-back';
}

/** An HttpTransport that calls `onDelivered` after each 2xx answer to a records write. */
export function watchDelivery(http: HttpTransport, onDelivered: () => void): HttpTransport {
  return {
    async request(request) {
      const response = await http.request(request);
      const path = request.url.replace(/^[a-z]+:\/\/[^/]+/i, '').split('?')[0];
      const write = path === Paths.statesWrite || path === Paths.measurementsWrite;
      if (write && response.status >= 200 && response.status < 300) onDelivered();
      return response;
    },
  };
}

export class Trial {
  #delivered = false;
  #connected = false;
  #timer: TimerHandle | undefined;

  constructor(
    private readonly clock: Clock,
    private readonly slots: BootSlots,
    private readonly logger: Logger,
    trialMs: number,
    private readonly onConfirmed: () => void,
  ) {
    this.#timer = clock.setTimer(() => this.#expire(trialMs), trialMs);
  }

  get open(): boolean {
    return this.#timer !== undefined;
  }

  /** Ends the trial undecided (the host stops this run): no rollback, no confirm; the next start decides. */
  stop(): void {
    this.clock.clearTimer(this.#timer);
    this.#timer = undefined;
  }

  /** A batch reached the service. */
  delivered(): void {
    this.#delivered = true;
    this.#check();
  }

  /** The hub connected. */
  connected(): void {
    this.#connected = true;
    this.#check();
  }

  #check(): void {
    if (!this.#delivered || !this.#connected || this.#timer === undefined) return;
    try {
      this.slots.confirm();
    } catch (e) {
      // Left to the timer: an image that cannot confirm itself is rolled back.
      logFailure(this.logger, 'error', 'ota: confirm failed', e);
      return;
    }
    this.clock.clearTimer(this.#timer);
    this.#timer = undefined;
    info(this.logger, 'ota: image confirmed');
    this.onConfirmed();
  }

  #expire(trialMs: number): void {
    this.#timer = undefined;
    this.logger.log('error', 'ota: trial failed, rolling back', {
      trialMs,
      delivered: this.#delivered,
      hub: this.#connected,
    });
    try {
      this.slots.rollback();
    } catch (e) {
      logFailure(this.logger, 'error', 'ota: rollback failed', e);
    }
  }
}
