/**
 * The WAL checkpointer's thread (checkpointer.ts starts it): its own connection
 * to the service's database copies the write-ahead log into the database file
 * and syncs it, the 15-30 ms of a checkpoint that would otherwise stop the
 * service's event loop (SQLite: "checkpoints in a separate thread"). A passive
 * checkpoint takes no lock a writer waits for, so the service keeps writing
 * while it runs.
 *
 * The log starts again from its beginning only when a write finds every frame
 * copied; under a steady flood of writes that never happens by itself. So once
 * the log holds `restartFrames`, all copied, the thread asks the service for a
 * pause in its writes (`full`), copies what came in meanwhile, and writes one
 * row itself, which restarts the log (the sync of the new log header falls on
 * this thread); then it lets the writes go on (`restarted`).
 *
 * Messages in: `nudge` (a write committed), `quiet` (the service's writes wait),
 * `close`. Out: `full`, `restarted`, `{ error }` (then the thread ends).
 */
import Database from 'better-sqlite3';
import { parentPort, workerData } from 'node:worker_threads';

export interface CheckpointThreadData {
  path: string;
  /** The log is restarted once it holds at least this many frames, all in the database file. */
  restartFrames: number;
  /** The wait before another pass when one could not copy every frame. */
  againMs: number;
}

interface CheckpointResult {
  busy: number;
  log: number;
  checkpointed: number;
}

function run(port: NonNullable<typeof parentPort>, data: CheckpointThreadData): void {
  const db = new Database(data.path, { timeout: 0 });
  db.pragma('synchronous = NORMAL');
  const checkpoint = db.prepare('PRAGMA wal_checkpoint(PASSIVE)');
  const touch = db.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES ('wal-restart', ?)");
  let timer: NodeJS.Timeout | undefined;
  let state: 'idle' | 'scheduled' | 'asked' | 'closed' = 'idle';
  let restarts = 0;

  const pass = (): void => {
    state = 'idle';
    const r = checkpoint.get() as CheckpointResult;
    if (r.busy !== 0 || r.log !== r.checkpointed) schedule(data.againMs);
    else if (r.log >= data.restartFrames) {
      state = 'asked';
      port.postMessage('full');
    }
  };
  /** The service's writes wait: copy the last frames, restart the log with one row, let them go on. */
  const restart = (): void => {
    checkpoint.get();
    try {
      touch.run(String(++restarts));
    } catch (e) {
      // SQLITE_BUSY: a write that does not wait (the hub's) holds the lock; the next pass asks again.
      if ((e as { code?: string }).code !== 'SQLITE_BUSY') throw e;
    }
    state = 'idle';
    port.postMessage('restarted');
  };
  const schedule = (ms: number): void => {
    if (state !== 'idle') return;
    state = 'scheduled';
    timer = setTimeout(() => guarded(pass), ms);
  };
  const guarded = (step: () => void): void => {
    try {
      step();
    } catch (e) {
      port.postMessage({ error: e instanceof Error ? e.message : String(e) });
      close();
    }
  };
  const close = (): void => {
    state = 'closed';
    if (timer !== undefined) clearTimeout(timer);
    port.close();
    if (db.open) db.close();
  };
  port.on('message', (m: unknown) => {
    if (m === 'close') close();
    else if (m === 'nudge') schedule(0);
    else if (m === 'quiet' && state === 'asked') guarded(restart);
  });
}

if (parentPort !== null) run(parentPort, workerData as CheckpointThreadData);
