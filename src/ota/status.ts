/**
 * The board's report of its firmware (docs/decisions.md section 12): `fw-running`
 * and `fw-status`, written with the device's own token through its own
 * properties (`properties/set`, spec 4.4), both in every write. A `downloading
 * <n>%` status goes out at most once every `minIntervalMs` (5 s); any other at
 * once. Only the latest status is kept: a write in flight is followed by one of
 * the status set meanwhile, and a failed write is tried again after `retryMs`
 * (logged once per outage). The last status other than a transient one
 * (downloading, verifying) is kept in the store, so a restart reports it again.
 */
import { logFailure } from '../errors.js';
import type { Clock, KeyValueStore, Logger, TimerHandle } from '../ports.js';
import type { ServiceClient } from '../service/client.js';
import { Paths } from '../wire.js';
import type { OtaErrno } from './download.js';
import { FwProperty } from './firmware.js';

/** Every `fw-status` value of the contract. */
export type OtaStatus =
  | 'idle'
  | `downloading ${number}%`
  | 'verifying'
  | 'installed'
  | 'confirmed'
  | 'rolled-back'
  | `failed ${OtaErrno}`
  | 'unsupported';

const storeKey = 'ota/status';
/** A status worth reporting again after a restart (a transient one is not kept). */
const keptStatus = /^(?:idle|installed|confirmed|rolled-back|unsupported|failed E[A-Z]+)$/;

export interface StatusOptions {
  /** Least time between two downloading reports, ms. Default 5000 (the contract's bound). */
  minIntervalMs?: number;
  /** Wait before a failed write is tried again, ms. Default 30000. */
  retryMs?: number;
}

export class StatusReporter {
  #status: OtaStatus;
  #sent: OtaStatus | undefined;
  #lastSentMs = -Infinity;
  #timer: TimerHandle | undefined;
  #inFlight: Promise<void> | undefined;
  #failing = false;
  #stopped = false;
  readonly #minIntervalMs: number;
  readonly #retryMs: number;

  constructor(
    private readonly client: ServiceClient,
    private readonly clock: Clock,
    private readonly store: KeyValueStore,
    private readonly logger: Logger,
    readonly running: string,
    options: StatusOptions = {},
  ) {
    this.#minIntervalMs = options.minIntervalMs ?? 5000;
    this.#retryMs = options.retryMs ?? 30000;
    const kept = store.get(storeKey) ?? '';
    this.#status = keptStatus.test(kept) ? (kept as OtaStatus) : 'idle';
  }

  /** The status last set (or kept from the previous run). */
  get current(): OtaStatus {
    return this.#status;
  }

  /** Sets the status and reports it (a downloading one no sooner than 5 s after the last report). */
  set(status: OtaStatus): void {
    if (status === this.#status && status === this.#sent) return;
    this.#status = status;
    const progress = status.startsWith('downloading');
    // Only progress waits out the 5 s; a waiting progress report gives way to any other status.
    if (!progress && !this.#failing && this.#timer !== undefined) {
      this.clock.clearTimer(this.#timer);
      this.#timer = undefined;
    }
    if (!progress && status !== 'verifying') {
      try {
        this.store.set(storeKey, status);
      } catch (e) {
        logFailure(this.logger, 'warn', 'ota: status not stored', e);
      }
    }
    this.#schedule();
  }

  /** Reports the running version with the current status (at start). */
  announce(): void {
    this.#sent = undefined;
    this.#schedule();
  }

  /** Sends nothing more (a host that stops). */
  stop(): void {
    this.#stopped = true;
    this.clock.clearTimer(this.#timer);
    this.#timer = undefined;
  }

  /** Resolves once no write is in flight (the latest status was sent, or failed once). */
  async settled(): Promise<void> {
    while (this.#inFlight !== undefined) await this.#inFlight;
  }

  #schedule(): void {
    if (this.#stopped || this.#inFlight !== undefined || this.#timer !== undefined || this.#status === this.#sent)
      return;
    const wait = this.#status.startsWith('downloading')
      ? this.#lastSentMs + this.#minIntervalMs - this.clock.monotonicMs()
      : 0;
    if (wait > 0) this.#timer = this.clock.setTimer(() => this.#wake(), wait);
    else this.#send();
  }

  #wake(): void {
    this.#timer = undefined;
    this.#schedule();
  }

  #send(): void {
    const status = this.#status;
    const values = { [FwProperty.running]: this.running, [FwProperty.status]: status };
    this.#lastSentMs = this.clock.monotonicMs();
    const body = `${this.client.devicePrefix()}"values":${JSON.stringify(values)}}`;
    this.#inFlight = this.client.post(Paths.propertiesSet, body).then(
      () => {
        this.#sent = status;
        this.#failing = false;
      },
      (e: unknown) => {
        if (!this.#failing) logFailure(this.logger, 'warn', 'ota: status not reported', e, { status });
        this.#failing = true;
        this.#timer = this.clock.setTimer(() => this.#wake(), this.#retryMs);
      },
    );
    void this.#inFlight.then(() => {
      this.#inFlight = undefined;
      this.#schedule();
    });
  }
}
