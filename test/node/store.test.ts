/** One contract suite for every KeyValueStore adapter (STYLE.md practice 12). */
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { KeyValueStore } from '../../src/ports.js';
import { FileStore, MemoryStore } from '../../targets/node/store.js';
import { FakeStore } from '../fakes/fake-store.js';

interface Subject {
  name: string;
  make(): { store: KeyValueStore; reopen(): KeyValueStore; cleanup(): void };
}

const subjects: Subject[] = [
  {
    name: 'FakeStore',
    make: () => {
      const s = new FakeStore();
      return { store: s, reopen: () => s, cleanup: () => undefined };
    },
  },
  {
    name: 'MemoryStore',
    make: () => {
      const s = new MemoryStore();
      return { store: s, reopen: () => s, cleanup: () => undefined };
    },
  },
  {
    name: 'FileStore',
    make: () => {
      const dir = mkdtempSync(join(tmpdir(), 'dds-store-'));
      return {
        store: new FileStore(dir),
        reopen: () => new FileStore(dir),
        cleanup: () => rmSync(dir, { recursive: true, force: true }),
      };
    },
  },
];

for (const subject of subjects) {
  describe(`KeyValueStore contract: ${subject.name}`, () => {
    let ctx: ReturnType<Subject['make']>;
    beforeEach(() => {
      ctx = subject.make();
    });
    afterEach(() => ctx.cleanup());

    it('gets what was set, undefined for absent keys, and forgets deleted keys', () => {
      assert.equal(ctx.store.get('a'), undefined);
      ctx.store.set('a', 'one');
      ctx.store.set('a', 'two');
      assert.equal(ctx.store.get('a'), 'two');
      ctx.store.delete('a');
      ctx.store.delete('never-there');
      assert.equal(ctx.store.get('a'), undefined);
    });

    it('lists keys by prefix in ascending order, with any characters in names', () => {
      for (const k of ['outbox/000000000010', 'outbox/000000000002', 'agent/channels', 'x y:z?%']) ctx.store.set(k, k);
      assert.deepEqual(ctx.store.keys('outbox/'), ['outbox/000000000002', 'outbox/000000000010']);
      assert.deepEqual(ctx.store.keys('x '), ['x y:z?%']);
      assert.equal(ctx.store.get('x y:z?%'), 'x y:z?%');
    });

    it('keeps values, unicode included, across a reopen', () => {
      ctx.store.set('k', 'température 21 °C ✓');
      assert.equal(ctx.reopen().get('k'), 'température 21 °C ✓');
    });
  });
}

describe('FileStore', () => {
  it('leaves no temporary files behind', () => {
    const dir = mkdtempSync(join(tmpdir(), 'dds-store-'));
    try {
      const s = new FileStore(dir);
      for (let i = 0; i < 5; i++) s.set(`k${i}`, 'v');
      assert.deepEqual(
        readdirSync(dir).filter((n) => n.endsWith('.tmp')),
        [],
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
