/**
 * Over-the-air updates of a device (docs/ota.md, docs/decisions.md section 12):
 * the state machine from the desired firmware properties to a confirmed image.
 *
 * API (what a composition root, the fleet simulator or a test builds):
 *
 *   const updater = new Updater({ clock, http, store, logger, client, running: '1.2.0',
 *                                 image: { slots, check } });   // image absent: 'unsupported'
 *   const http2 = watchDelivery(http, () => updater.delivered());          // the agent's transport (trial.ts)
 *   await updater.start();        // the trial or rollback check, fw-running + fw-status, properties/get
 *   updater.offer(values);        // each `properties` Notify's values (or any property object)
 *   updater.hubConnected();       // each hub connect: the trial's condition, and properties/get again
 *   updater.stop();               // cancels a download and the trial's timer (hosts that stop)
 *
 * States (`fw-status`): idle -> downloading <n>% -> verifying -> installed
 * (restart) -> confirmed, or rolled-back after a failed trial; failed <errno>
 * from any step (the image is cancelled, the running one goes on); unsupported
 * where `image` is absent. The statuses go out through `StatusReporter`.
 *
 * Rules: act once all four properties are set and `fw-version` differs from
 * the running version; never lower than it unless pinned (`=<version>`, else
 * `failed EPERM`); an update that failed is not tried again until the
 * properties change (one that failed verification or was rolled back, not
 * even after a restart: its id is kept in the store); nothing new is written
 * while the running image is on trial (its predecessor is the fallback).
 */
import { AgentError, info, logFailure, warn } from '../errors.js';
import { fullJitter } from '../retry/backoff.js';
import { Paths } from '../wire.js';
import { ChunkedDownload, type OtaErrno } from './download.js';
import {
  compareVersions,
  emptyDesired,
  mergeDesired,
  readDesired,
  sameBytes,
  type DesiredFirmware,
} from './firmware.js';
import { updaterDefaults, type UpdaterOptions } from './options.js';
import type { ImageCheck, ImagePorts, ImageWriter } from './ports.js';
import { StatusReporter, type OtaStatus } from './status.js';
import { checkBoot, pendingKey, readPending, Trial } from './trial.js';

/** Failures not worth a second download of the same image, even after a restart. */
const lasting: readonly OtaErrno[] = ['EBADMSG', 'EKEYREJECTED'];
const refusedKey = 'ota/refused';

export type { UpdaterOptions } from './options.js';

export class Updater {
  readonly reporter: StatusReporter;
  readonly #o: UpdaterOptions;
  readonly #desired = emptyDesired();
  #job: { id: string; download: ChunkedDownload } | undefined;
  /** The update that failed in this run (not tried again until the properties change). */
  #failedId: string | undefined;
  #trial: Trial | undefined;
  /** Stopped by its host: it starts, restarts and rolls back nothing more. */
  #stopped = false;

  constructor(options: UpdaterOptions) {
    this.#o = options;
    this.reporter = new StatusReporter(
      options.client,
      options.clock,
      options.store,
      options.logger,
      options.running,
      options.status,
    );
  }

  get status(): OtaStatus {
    return this.reporter.current;
  }

  /** Settles the previous update (trial, rollback), reports, and reads the properties. */
  async start(): Promise<void> {
    const { image, store, running, clock, logger } = this.#o;
    if (image !== undefined) {
      const outcome = checkBoot(store, image.slots, running);
      if (outcome === 'trial') {
        this.reporter.set('installed');
        this.#trial = new Trial(clock, image.slots, logger, this.#o.trialMs ?? updaterDefaults.trialMs, () =>
          this.#confirmed(),
        );
      } else if (outcome !== 'none') {
        if (outcome === 'rolled-back') this.#remember(readPending(store)?.id ?? '');
        this.#forget(pendingKey);
        this.reporter.set(outcome);
      }
    }
    this.reporter.announce();
    await this.read();
  }

  /** Reads `properties/get` and acts on it; a failure is logged (the next hub connect reads again). */
  async read(): Promise<void> {
    try {
      this.offer(await this.#o.client.ofDevice(Paths.propertiesGet));
    } catch (e) {
      logFailure(this.#o.logger, 'warn', 'ota: properties not read', e);
    }
  }

  /** A property object (a Notify's changed values, or all of them): acts when fw-* are among them. */
  offer(values: unknown): void {
    if (mergeDesired(this.#desired, values)) this.#consider();
  }

  /** A batch of records reached the service (watchDelivery). */
  delivered(): void {
    this.#trial?.delivered();
  }

  /** The hub connected (each connect): the trial's second condition, then the properties again. */
  hubConnected(): void {
    this.#trial?.connected();
    void this.read();
  }

  /**
   * Stops this run's updater (a host stopping the agent): the download is cancelled, the trial's timer
   * cleared, and nothing more is started; an image installed and awaiting its restart is left for the next
   * start (the bootloader's), so a stopped run never restarts or rolls back the board behind its successor.
   */
  stop(): void {
    this.#stopped = true;
    this.reporter.stop();
    this.#trial?.stop();
    this.#job?.download.cancel();
  }

  #consider(): void {
    const { running, logger, image } = this.#o;
    const d = readDesired(this.#desired);
    if (d === undefined || this.#stopped || this.#trial?.open === true) return;
    if (typeof d === 'string') {
      if (this.#failedId !== d) warn(logger, 'ota: desired firmware invalid', { reason: d });
      return this.#fail(d, 'EINVAL');
    }
    if (d.version === running) {
      this.#job?.download.cancel();
      if (this.status.startsWith('failed') || this.status === 'unsupported') this.reporter.set('idle');
      return;
    }
    if (this.#job?.id === d.id || this.#failedId === d.id || this.#o.store.get(refusedKey) === d.id) return;
    this.#job?.download.cancel();
    if (compareVersions(d.version, running) < 0 && !d.pinned) {
      warn(logger, 'ota: lower version not pinned', { version: d.version, running });
      return this.#fail(d.id, 'EPERM');
    }
    if (image === undefined) {
      this.#failedId = d.id;
      return this.reporter.set('unsupported');
    }
    void this.#install(d, image).catch((e: unknown) => {
      logFailure(logger, 'error', 'ota: update failed', e);
      this.#fail(d.id, 'EIO');
    });
  }

  async #install(d: DesiredFirmware, image: ImagePorts): Promise<void> {
    const o = this.#o;
    let writer: ImageWriter | undefined;
    let check: ImageCheck | undefined;
    const sameService = d.url.toLowerCase().startsWith(o.client.access.baseUrl.replace(/\/+$/, '').toLowerCase() + '/');
    const download = new ChunkedDownload({
      http: o.http,
      clock: o.clock,
      retry: o.retry ?? fullJitter(),
      url: d.url,
      // The device's token goes only to its own service (any valid token opens /firmware there).
      headers: sameService ? { authorization: `Bearer ${o.client.access.token}` } : {},
      chunkBytes: o.chunkBytes ?? updaterDefaults.chunkBytes,
      maxAttempts: o.maxAttempts ?? updaterDefaults.maxAttempts,
      begin: (total) => {
        this.#logged('open', () => (writer = image.slots.open(total)));
        check = image.check();
      },
      chunk: (bytes) => {
        this.#logged('write', () => writer?.write(bytes));
        check?.write(bytes);
      },
      logger: o.logger,
      progress: (received, total) => this.reporter.set(`downloading ${Math.floor((received * 100) / total)}%`),
    });
    this.#job = { id: d.id, download };
    info(o.logger, 'ota: downloading', { version: d.version, url: d.url });
    this.reporter.set('downloading 0%');
    let errno = await download.run();
    if (this.#job?.download === download) this.#job = undefined;
    if (download.cancelled) return void this.#quietly('cancel', () => writer?.cancel());
    if (errno === undefined && writer && check) {
      this.reporter.set('verifying');
      if (!sameBytes(check.sha256(), d.sha256)) errno = 'EBADMSG';
      else if (!check.verify(d.signature)) errno = 'EKEYREJECTED';
      else if (!this.#quietly('complete', () => writer?.complete())) errno = 'EIO';
    }
    if (errno !== undefined) {
      this.#quietly('cancel', () => writer?.cancel());
      return this.#fail(d.id, errno);
    }
    o.store.set(pendingKey, JSON.stringify({ version: d.version, id: d.id }));
    info(o.logger, 'ota: installed, restarting', { version: d.version });
    this.reporter.set('installed');
    await this.reporter.settled();
    if (!this.#stopped) image.slots.restart();
  }

  #fail(id: string, errno: OtaErrno): void {
    this.#failedId = id;
    if (lasting.includes(errno)) this.#remember(id);
    this.#o.logger.log('error', 'ota: update failed', { update: id, errno });
    this.reporter.set(`failed ${errno}`);
  }

  #confirmed(): void {
    this.#trial = undefined;
    this.#forget(pendingKey);
    this.reporter.set('confirmed');
    this.#consider();
  }

  #remember(id: string): void {
    this.#quietly('store', () => this.#o.store.set(refusedKey, id));
  }

  #forget(key: string): void {
    this.#quietly('store', () => this.#o.store.delete(key));
  }

  /** Runs a writer or store step; logs and rethrows when it throws (the download turns it into an errno). */
  #logged(step: string, f: () => void): void {
    if (!this.#quietly(step, f)) throw new AgentError('internal', `ota: ${step} failed`);
  }

  /** Runs a writer or store step; false (logged) when it throws. */
  #quietly(step: string, f: () => void): boolean {
    try {
      f();
      return true;
    } catch (e) {
      logFailure(this.#o.logger, 'error', `ota: ${step} failed`, e);
      return false;
    }
  }
}
