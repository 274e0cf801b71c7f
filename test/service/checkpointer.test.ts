/**
 * The WAL checkpointer (host-sim/service/store/checkpointer.ts): a thread of
 * its own copies the log into the database file, so the service's connection
 * never checkpoints below its backstop; it restarts the log in a pause of the
 * writes, so a steady stream of writes keeps the log bounded and loses
 * nothing (the log's file is written again from its start); and when the thread fails the service checkpoints as SQLite does
 * by default, and says so.
 */
import { strict as assert } from 'node:assert';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import tmp from 'tmp';
import { sqliteAutoCheckpointFrames, startCheckpointer } from '../../host-sim/service/store/checkpointer.js';

/** A frame of the log: a 24-byte header and a 4 KiB page. */
const frameBytes = 4096 + 24;

/** Resolves once `done()` holds, looking again every few milliseconds; rejects after `timeoutMs`. */
async function until(done: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!done()) {
    if (Date.now() > deadline) throw new Error('timed out waiting for the checkpoint thread');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe('service storage: the WAL checkpoint thread', function () {
  this.timeout(30_000);
  let dir: tmp.DirResult;
  beforeEach(() => (dir = tmp.dirSync({ unsafeCleanup: true })));
  afterEach(() => dir.removeCallback());

  it('keeps a steady stream of writes to a bounded log, restarted in pauses of the writes, losing nothing', async () => {
    const path = join(dir.name, 'ckpt.db');
    const db = new Database(path);
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.exec(`CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
             CREATE TABLE s (name TEXT NOT NULL, ts INTEGER NOT NULL, v, PRIMARY KEY (name, ts)) WITHOUT ROWID;`);
    const errors: string[] = [];
    const restartFrames = 200;
    const backstopFrames = 100_000;
    const checkpointer = startCheckpointer(db, path, {
      restartFrames,
      backstopFrames,
      maxPauseMs: 5000,
      onError: (m) => errors.push(m),
    });
    const insert = db.prepare('INSERT INTO s (name, ts, v) VALUES (?, ?, ?)');
    // 100 series a batch, as the flood's state batches: each commit touches about a page per series.
    const batch = db.transaction((ts: number) => {
      for (let k = 0; k < 100; k++) insert.run(`c${k}`, ts, ts * k);
    });
    const restarts = (): number =>
      Number(db.prepare("SELECT value FROM meta WHERE key = 'wal-restart'").pluck().get() ?? 0);
    let paused = 0;
    try {
      assert.equal(db.pragma('wal_autocheckpoint', { simple: true }), backstopFrames);
      // Write as a flood does, until the thread has restarted the log three times.
      let batches = 0;
      while (restarts() < 3) {
        assert.ok(batches < 3000, `no restart after ${batches} batches`);
        const wait = checkpointer.whenWritable();
        if (wait !== undefined) {
          paused++;
          await wait;
        }
        batch(++batches);
        checkpointer.nudge();
        await new Promise((resolve) => setImmediate(resolve));
      }
      assert.ok(paused >= 3, `the writes paused for each restart (${paused})`);
      assert.equal(db.prepare('SELECT COUNT(*) FROM s').pluck().get(), batches * 100, 'every row stored');
      // A restarted log is written again from the start of its file: it holds fewer frames than the file.
      const fileFrames = Math.floor(statSync(`${path}-wal`).size / frameBytes);
      const [now] = db.pragma('wal_checkpoint(PASSIVE)') as { log: number }[];
      assert.ok(now !== undefined && now.log < fileFrames, `${now?.log} frames in a file of ${fileFrames}`);
      assert.deepEqual(errors, []);
    } finally {
      await checkpointer.close();
      db.close();
    }
  });

  it('falls back to SQLite checkpointing on the service thread, and says so, when the thread fails', async () => {
    const db = new Database(join(dir.name, 'main.db'));
    const errors: string[] = [];
    // The thread cannot open a database in a directory that does not exist.
    const checkpointer = startCheckpointer(db, join(dir.name, 'missing', 'x.db'), {
      restartFrames: 100,
      backstopFrames: 5000,
      maxPauseMs: 100,
      onError: (m) => errors.push(m),
    });
    try {
      await until(() => errors.length > 0);
      assert.match(
        errors[0] ?? '',
        /^storage: the checkpoint thread failed \(.+\); checkpointing on the service's thread$/,
      );
      assert.equal(db.pragma('wal_autocheckpoint', { simple: true }), sqliteAutoCheckpointFrames);
      assert.equal(checkpointer.whenWritable(), undefined, 'writes never wait on a failed thread');
      checkpointer.nudge(); // a no-op now
      assert.equal(errors.length, 1);
    } finally {
      await checkpointer.close();
      db.close();
    }
  });

  it('runs no thread for a database in memory', async () => {
    const db = new Database(':memory:');
    const checkpointer = startCheckpointer(db, ':memory:', {
      restartFrames: 100,
      backstopFrames: 5000,
      maxPauseMs: 100,
      onError: () => assert.fail('no thread to fail'),
    });
    assert.equal(checkpointer.whenWritable(), undefined);
    await checkpointer.close();
    db.close();
  });
});
