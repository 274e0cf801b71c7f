/**
 * The bound on concurrent image downloads, across all tokens (decisions 12):
 * a download holds a slot from its first byte until its response closes
 * (finished, or the client went away); beyond `max` a request is refused with
 * 503 and `Retry-After`. Counts what happened for `npm run fleet -- --scenario
 * rollout` and the tests: the most slots held at once, downloads served and
 * refused. Waiters (tests, the fleet) are told each change of `active`.
 */
import { ServiceError } from '../errors.js';

/** Default concurrent downloads across all tokens (docs/service.md, "Firmware images"). */
export const defaultMaxDownloads = 16;
/** Default `Retry-After` (seconds) of a refused download. */
export const defaultRetryAfterS = 2;

export interface DownloadStats {
  /** Slots held now. */
  active: number;
  /** The most slots held at once since the service started. */
  peak: number;
  /** Downloads started (200 and 206 answers). */
  served: number;
  /** Downloads refused with 503 because every slot was held. */
  refused: number;
}

export class DownloadSlots {
  private readonly stats: DownloadStats = { active: 0, peak: 0, served: 0, refused: 0 };
  private readonly waiters = new Set<(stats: Readonly<DownloadStats>) => void>();

  constructor(readonly max: number) {
    if (!Number.isInteger(max) || max < 1)
      throw new ServiceError('config', `firmware.maxDownloads: expected a whole number >= 1, got ${max}`);
  }

  /** A slot's release function, or undefined when all `max` are held (the caller answers 503). */
  acquire(): (() => void) | undefined {
    if (this.stats.active >= this.max) {
      this.stats.refused++;
      return undefined;
    }
    this.stats.active++;
    this.stats.served++;
    this.stats.peak = Math.max(this.stats.peak, this.stats.active);
    this.changed();
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.stats.active--;
      this.changed();
    };
  }

  snapshot(): DownloadStats {
    return { ...this.stats };
  }

  /** Resolves once `test(stats)` holds (at once if it holds now). */
  until(test: (stats: Readonly<DownloadStats>) => boolean): Promise<DownloadStats> {
    if (test(this.stats)) return Promise.resolve(this.snapshot());
    return new Promise((resolve) => {
      const check = (s: Readonly<DownloadStats>): void => {
        if (!test(s)) return;
        this.waiters.delete(check);
        resolve({ ...s });
      };
      this.waiters.add(check);
    });
  }

  private changed(): void {
    for (const w of [...this.waiters]) w(this.stats);
  }
}
