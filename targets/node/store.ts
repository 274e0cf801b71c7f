/**
 * The KeyValueStore port on Node: one file per key in a directory (`--store
 * DIR`), written to a temporary file and renamed, so a value is either the old
 * one or the new one after a crash, and durable when `set` returns (fsync).
 * Key names are URL-encoded into file names.
 *
 * A damaged directory never stops the agent here: an entry that cannot be read
 * (a directory where a file should be, an I/O error) throws AgentError `store`
 * naming the key and the file, which the outbox and the caches skip with a
 * warning; a file whose name does not decode (not written by this store) is
 * left out of `keys`.
 */
import {
  closeSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import { AgentError } from '../../src/errors.js';
import type { KeyValueStore } from '../../src/ports.js';

const suffix = '.value';

export class FileStore implements KeyValueStore {
  constructor(readonly dir: string) {
    mkdirSync(dir, { recursive: true });
  }

  private path(key: string): string {
    return join(this.dir, encodeURIComponent(key) + suffix);
  }

  get(key: string): string | undefined {
    const file = this.path(key);
    try {
      return readFileSync(file, 'utf8');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw failure('read', key, file, e);
    }
  }

  set(key: string, value: string): void {
    const target = this.path(key);
    const temp = `${target}.tmp`;
    try {
      const fd = openSync(temp, 'w');
      try {
        writeSync(fd, value);
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
      renameSync(temp, target);
    } catch (e) {
      rmSync(temp, { force: true });
      throw failure('write', key, target, e);
    }
  }

  delete(key: string): void {
    const file = this.path(key);
    try {
      rmSync(file, { force: true });
    } catch (e) {
      throw failure('delete', key, file, e);
    }
  }

  keys(prefix: string): string[] {
    const keys: string[] = [];
    for (const name of readdirSync(this.dir)) {
      if (!name.endsWith(suffix)) continue;
      let key: string;
      try {
        key = decodeURIComponent(name.slice(0, -suffix.length));
      } catch {
        continue; // not a name this store wrote
      }
      if (key.startsWith(prefix)) keys.push(key);
    }
    return keys.sort();
  }
}

function failure(op: string, key: string, file: string, cause: unknown): AgentError {
  const reason = cause instanceof Error ? cause.message : String(cause);
  return new AgentError('store', `store: cannot ${op} ${key} (${file}): ${reason}`, { cause });
}

/** A store in memory, for runs without `--store` (nothing survives the process). */
export class MemoryStore implements KeyValueStore {
  private readonly data = new Map<string, string>();
  get(key: string): string | undefined {
    return this.data.get(key);
  }
  set(key: string, value: string): void {
    this.data.set(key, value);
  }
  delete(key: string): void {
    this.data.delete(key);
  }
  keys(prefix: string): string[] {
    return [...this.data.keys()].filter((k) => k.startsWith(prefix)).sort();
  }
}
