/**
 * Keeps the WAL's checkpoints off the service's event loop. SQLite's automatic
 * checkpoint runs inside the commit that passes 1,000 frames: it copies the log
 * into the database file and syncs it, 15-30 ms on this project's machines, in
 * which no request is answered (under a flood of state batches, one in nine of
 * them, and with it every other client's p99). Here a thread of its own
 * (checkpoint-thread.ts) copies after each commit (`nudge()` costs a message);
 * the service's connection checkpoints only as a backstop (`backstopFrames`,
 * should the thread fall behind) or, if the thread fails, as SQLite does.
 *
 * When the thread is ready to restart the log it asks for a pause in the
 * writes: `whenWritable()` then returns a promise that the write routes await
 * (reads never wait), for the few milliseconds of the last copy, and at most
 * `maxPauseMs`. Databases in memory have no log and get no thread.
 */
import type Database from 'better-sqlite3';
import { Worker } from 'node:worker_threads';
import type { CheckpointThreadData } from './checkpoint-thread.js';

/** SQLite's own default for the automatic checkpoint, restored when the thread fails. */
export const sqliteAutoCheckpointFrames = 1000;

export interface CheckpointerOptions {
  /** The log is restarted once it holds this many frames, all copied. */
  restartFrames: number;
  /** The service's own connection checkpoints beyond this many frames (the thread fell behind). */
  backstopFrames: number;
  /** The longest pause of the writes for a restart; they go on after it whatever the thread does. */
  maxPauseMs: number;
  /** Called once if the thread fails; the service then checkpoints as SQLite does by default. */
  onError: (message: string) => void;
}

/**
 * The log restarts past 500 frames (2 MiB), plus what the writes add during the thread's last pass; the
 * service's connection checkpoints past 2,000 (8 MiB), the log's bound.
 */
export const defaultCheckpointerOptions: Omit<CheckpointerOptions, 'onError'> = {
  restartFrames: 500,
  backstopFrames: 2 * sqliteAutoCheckpointFrames,
  maxPauseMs: 250,
};

export interface Checkpointer {
  /** Tells the thread that a write committed (it checkpoints soon). */
  nudge(): void;
  /** Undefined while writes may go ahead; else a promise that resolves when they may. */
  whenWritable(): Promise<void> | undefined;
  /**
   * Asks the thread to close its connection; resolves once the thread has ended (after CLOSE_WAIT_MS it is
   * terminated), so that nothing touches the database's files after it (a test's scratch folder is removed then).
   */
  close(): Promise<void>;
}

/** The longest wait for the thread to end at `close()` before it is terminated. */
export const CLOSE_WAIT_MS = 2000;

const none: Checkpointer = {
  nudge: () => undefined,
  whenWritable: () => undefined,
  close: () => Promise.resolve(),
};

/** Starts the checkpoint thread for `db` at `path` (none for `:memory:`), and moves the automatic checkpoint to the backstop. */
export function startCheckpointer(db: Database.Database, path: string, options: CheckpointerOptions): Checkpointer {
  if (path === ':memory:' || path === '') return none;
  const data: CheckpointThreadData = { path, restartFrames: options.restartFrames, againMs: 2 };
  const worker = new Worker(new URL('./checkpoint-thread.js', import.meta.url), { workerData: data });
  worker.unref();
  db.pragma(`wal_autocheckpoint = ${options.backstopFrames}`);
  let state: 'running' | 'failed' | 'closed' = 'running';
  let pause: { promise: Promise<void>; resume: () => void; timer: NodeJS.Timeout } | undefined;
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));

  const resume = (): void => {
    if (pause === undefined) return;
    clearTimeout(pause.timer);
    pause.resume();
    pause = undefined;
  };
  const fail = (message: string): void => {
    if (state !== 'running') return;
    state = 'failed';
    resume();
    if (db.open) db.pragma(`wal_autocheckpoint = ${sqliteAutoCheckpointFrames}`);
    options.onError(`storage: the checkpoint thread failed (${message}); checkpointing on the service's thread`);
  };
  worker.on('message', (m: unknown) => {
    if (m === 'full' && state === 'running' && pause === undefined) {
      let done = (): void => undefined;
      const promise = new Promise<void>((resolve) => (done = resolve));
      pause = { promise, resume: done, timer: setTimeout(resume, options.maxPauseMs) };
      worker.postMessage('quiet');
    } else if (m === 'restarted') resume();
    else if (typeof m === 'object' && m !== null && 'error' in m) fail(String(m.error));
  });
  worker.on('error', (e) => fail(e.message));
  worker.on('exit', (code) => {
    if (state === 'running') fail(`exited with code ${code}`);
  });
  return {
    nudge() {
      if (state === 'running') worker.postMessage('nudge');
    },
    whenWritable: () => pause?.promise,
    async close() {
      resume();
      if (state === 'running') worker.postMessage('close');
      else void worker.terminate();
      state = 'closed';
      const timer = setTimeout(() => void worker.terminate(), CLOSE_WAIT_MS);
      await exited;
      clearTimeout(timer);
    },
  };
}
