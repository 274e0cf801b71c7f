/**
 * An unchanged `channels/list` answer is not parsed (on a board the re-read then holds only the answer's
 * text: docs/agent.md, "Configuration"). On Node, where JSON.parse can be watched; the rest of the rule
 * (cached as it came, not cached again, a change applied) runs on XS too (test/core/agent/follow-config).
 */
import assert from 'node:assert/strict';
import sinon from 'sinon';
import { ch, PrettyHttp, world } from '../core/agent/harness.js';

describe('agent: an unchanged configuration is not parsed', () => {
  afterEach(() => sinon.restore());

  it('parses the first answer and a changed one, never an unchanged one', async () => {
    const http = new PrettyHttp();
    const door = ch('door', 'digitalInput', { pin: 4 });
    const w = world({ http, channels: [door], agent: { configRefreshMs: 0 } });
    const parse = sinon.spy(JSON, 'parse');
    const parsedLists = (): number =>
      parse.getCalls().filter((c) => typeof c.args[0] === 'string' && c.args[0].includes('"channels": [')).length;
    await w.agent.start();
    assert.equal(parsedLists(), 1, 'the first answer');
    await w.agent.reloadConfig();
    await w.agent.reloadConfig();
    assert.equal(parsedLists(), 1, 'two unchanged answers, not parsed');
    http.channels = { buses: [], channels: [door, ch('temp', 'analogInput', { pin: 34 })] };
    await w.agent.reloadConfig();
    assert.equal(parsedLists(), 2, 'the changed one');
    assert.deepEqual(w.agent.channelKeys.sort(), ['door', 'temp']);
    w.agent.stop();
  });
});
