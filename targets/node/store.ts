/**
 * The KeyValueStore port on Node: one file per key in a directory (`--store
 * DIR`), written to a temporary file and renamed, so a value is either the old
 * one or the new one after a crash, and durable when `set` returns (fsync).
 * Key names are URL-encoded into file names.
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
    try {
      return readFileSync(this.path(key), 'utf8');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw e;
    }
  }

  set(key: string, value: string): void {
    const target = this.path(key);
    const temp = `${target}.tmp`;
    const fd = openSync(temp, 'w');
    try {
      writeSync(fd, value);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, target);
  }

  delete(key: string): void {
    rmSync(this.path(key), { force: true });
  }

  keys(prefix: string): string[] {
    return readdirSync(this.dir)
      .filter((name) => name.endsWith(suffix))
      .map((name) => decodeURIComponent(name.slice(0, -suffix.length)))
      .filter((key) => key.startsWith(prefix))
      .sort();
  }
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
