/**
 * A KeyValueStore in memory. Two agents built on the same FakeStore see the
 * same data, which is how the restart tests model a reboot. `failWrites` makes
 * `set` throw, to test a full flash.
 */
import type { KeyValueStore } from '../../src/ports.js';

export class FakeStore implements KeyValueStore {
  readonly data = new Map<string, string>();
  writes = 0;
  failWrites = false;

  get(key: string): string | undefined {
    return this.data.get(key);
  }

  set(key: string, value: string): void {
    if (this.failWrites) throw new Error('fake store: write failed');
    this.writes++;
    this.data.set(key, value);
  }

  delete(key: string): void {
    this.data.delete(key);
  }

  keys(prefix: string): string[] {
    return [...this.data.keys()].filter((k) => k.startsWith(prefix)).sort();
  }
}
