/**
 * The lives of one fleet device, one at a time (device.ts): starting, stopping,
 * restarting into another image and the end-of-run drain each run alone, in the
 * order they were asked for. Without it a restart that an update asked for just
 * before the run ended stopped the agent while the drain stopped it too (its
 * counters were added twice, so records "reported" were never read back), and
 * then started a new life after the drain, sampling on while the records were
 * read back and delivering none of it before the end.
 *
 * `end()` marks the run over: a restart asked for afterwards starts nothing
 * (the board is switched off before it restarts), so nothing is sampled that
 * the drain does not deliver and the summary does not count.
 */
export class LifeQueue {
  private tail: Promise<unknown> = Promise.resolve();
  private over = false;
  /** Restarts asked for once the run was over: skipped. */
  skipped = 0;

  /** Whether the run is over (the drain began). */
  get ended(): boolean {
    return this.over;
  }

  /** Runs `op` after every step asked for before it; its result or failure is the caller's. */
  run<T>(op: () => Promise<T>): Promise<T> {
    const done = this.tail.then(op);
    this.tail = done.catch(() => undefined);
    return done;
  }

  /** Like `run`, but skipped (resolves undefined) when the run is over by the time its turn comes. */
  unlessEnded(op: () => Promise<void>): Promise<void> {
    return this.run(() => {
      if (!this.over) return op();
      this.skipped++;
      return Promise.resolve();
    });
  }

  /** The run is over: `op` (the drain) runs after the steps before it, and no restart after it. */
  end<T>(op: () => Promise<T>): Promise<T> {
    return this.run(() => {
      this.over = true;
      return op();
    });
  }
}
