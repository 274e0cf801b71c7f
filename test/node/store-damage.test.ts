/**
 * Store damage on a real directory (docs/agent.md, "Store damage"): the agent
 * starts on a FileStore holding an unreadable entry (a directory where a file
 * should be), a truncated batch, a garbled one, a foreign file and a cached
 * configuration that cannot be read; it logs the outbox's damage once, removes
 * what it can, and delivers every readable batch.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent } from '../../src/agent/agent.js';
import { AgentError } from '../../src/errors.js';
import { PinChannelProvider } from '../../src/pins/provider.js';
import { FileStore } from '../../targets/node/store.js';
import { FakeClock } from '../fakes/fake-clock.js';
import { FakeHttp } from '../fakes/fake-http.js';
import { FakeLogger } from '../fakes/fake-logger.js';
import { FakePins } from '../fakes/fake-pins.js';

const file = (dir: string, key: string): string => join(dir, encodeURIComponent(key) + '.value');
const record = (n: number): string => `{"channel":"count.reported","value":${n},"timestamp":${1767225600 + n}}`;

describe('FileStore: damage', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'dds-damage-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('names the key and the file when an entry cannot be read, written or deleted', () => {
    mkdirSync(file(dir, 'outbox/r001'));
    writeFileSync(join(dir, 'notes%E0%A4%A.value'), 'not ours'); // does not URL-decode
    const store = new FileStore(dir);
    for (const act of [
      () => store.get('outbox/r001'),
      () => store.set('outbox/r001', 'x'),
      () => store.delete('outbox/r001'),
    ]) {
      assert.throws(act, (e: unknown) => {
        assert.ok(e instanceof AgentError);
        assert.equal(e.code, 'store');
        assert.match(e.message, /outbox\/r001 \(.*outbox%2Fr001\.value\)/);
        return true;
      });
    }
    assert.deepEqual(store.keys(''), ['outbox/r001']);
  });

  it('the agent starts, logs the damage once, removes it, and delivers every readable batch', async () => {
    writeFileSync(file(dir, 'outbox/r000'), `s2@1|[${record(1)},${record(2)}]`);
    mkdirSync(file(dir, 'outbox/r001')); // unreadable: EISDIR
    writeFileSync(file(dir, 'outbox/r002'), `s2@3|[${record(3)},${record(4).slice(0, 20)}`); // truncated
    writeFileSync(file(dir, 'outbox/r003'), '\u0000\u0001garbage'); // garbled
    writeFileSync(file(dir, 'outbox/r004'), `s1@5|[${record(5)}]`);
    writeFileSync(file(dir, 'outbox/readme'), 'left by a person'); // foreign
    mkdirSync(file(dir, 'agent/channels')); // the configuration cache, unreadable
    const logger = new FakeLogger();
    const http = new FakeHttp();
    const clock = new FakeClock();
    const agent = new Agent({
      clock,
      http,
      store: new FileStore(dir),
      logger,
      service: { baseUrl: 'http://dds.test', device: 'dev', token: 'device-token' },
      providers: [new PinChannelProvider(new FakePins())],
    });
    await agent.start();
    await clock.advanceAsync(100);
    const named = (text: string): unknown[] =>
      logger.find('warn', text).map((l) => l.fields?.['key'] ?? l.fields?.['reason']);
    assert.deepEqual(named('damaged entry removed'), ['outbox/r001'], 'once per boot, naming the first');
    assert.equal(agent.outbox.damaged, 3);
    assert.deepEqual(named('cached configuration unreadable'), ['agent/channels']);
    assert.deepEqual(
      http.statesOf('count.reported').map((s) => s.value),
      [1, 2, 5],
    );
    assert.equal(agent.counters.queued, 0);
    assert.equal(existsSync(file(dir, 'outbox/r002')), false, 'removed');
    assert.equal(existsSync(file(dir, 'outbox/r003')), false, 'removed');
    assert.equal(readFileSync(file(dir, 'outbox/readme'), 'utf8'), 'left by a person', 'not ours: left alone');
    agent.stop();
    logger.assertNoErrors();
  });
});
