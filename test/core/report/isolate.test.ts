/**
 * A batch refused whole for one bad record (not a removed channel): the
 * records around it are delivered, in order, and only the bad one is dropped.
 */
import { AgentError } from '../../../src/errors.js';
import { isolateRefused, type IsolationIo } from '../../../src/report/isolate.js';
import { assert } from '../../support/assert.js';
import { ch, world } from '../agent/harness.js';

/** A service that refuses (400) any request holding a record in `bad`, and fails with `network` when `down()` says so. */
function service(bad: Set<number>, down: (requests: number) => boolean = () => false) {
  const accepted: number[] = [];
  const dropped: number[] = [];
  const left: number[] = [];
  let requests = 0;
  const io: IsolationIo = {
    post(json) {
      requests++;
      if (down(requests)) return Promise.reject(new AgentError('network', 'fake: reset'));
      const records = JSON.parse(json) as number[];
      if (records.some((r) => bad.has(r)))
        return Promise.reject(new AgentError('http.status', 'refused', { status: 400 }));
      accepted.push(...records);
      return Promise.resolve();
    },
    remaining: (json, count) => {
      assert.equal((JSON.parse(json) as number[]).length, count);
      left.push(count);
    },
    delivered: () => undefined,
    dropped: (record) => dropped.push(Number(record)),
  };
  return { io, accepted, dropped, left, requests: () => requests };
}

const numbers = (n: number): string[] => Array.from({ length: n }, (_, i) => String(i));

describe('report/isolate: a batch refused for one of its records', () => {
  it('delivers every other record in order and drops only the bad ones, in about 2 log2(n) requests each', async () => {
    const s = service(new Set([137, 400]));
    await isolateRefused(numbers(500), s.io);
    assert.deepEqual(s.dropped, [137, 400]);
    assert.deepEqual(
      s.accepted,
      numbers(500)
        .map(Number)
        .filter((n) => n !== 137 && n !== 400),
    );
    assert.ok(s.requests() <= 2 * 2 * Math.ceil(Math.log2(500)) + 2, `requests ${s.requests()}`);
    assert.equal(s.left.at(-1), 0, 'nothing left at the end');
  });

  it('stops at a network failure with only the undelivered records left, and rethrows it', async () => {
    const s = service(new Set([3]), (n) => n === 4);
    let error: unknown;
    await isolateRefused(numbers(8), s.io).catch((e: unknown) => (error = e));
    assert.ok(error instanceof AgentError && error.code === 'network');
    const delivered = s.accepted.length + s.dropped.length;
    assert.equal(s.left.at(-1), 8 - delivered, 'what is left is exactly what was neither delivered nor dropped');
  });

  it('through the agent: one refused record does not take the batch down with it', async () => {
    const note = ch('note', 'custom', { customType: 'number', transmitEvents: [{ type: 'change' }] });
    const w = world({ channels: [note] });
    await w.agent.start();
    w.http.refuseRecord = (record) => record.value === 13;
    for (let i = 1; i <= 20; i++) {
      w.custom.publish('note', i);
      await w.clock.advanceAsync(100);
    }
    await w.clock.advanceAsync(2000);
    const values = w.http.statesOf('note.reported').map((r) => r.value);
    assert.deepEqual(
      values,
      Array.from({ length: 20 }, (_, i) => i + 1).filter((v) => v !== 13),
    );
    assert.equal(w.agent.counters.rejected, 1);
    assert.equal(w.agent.counters.queued, 0);
    assert.equal(w.logger.find('error', 'refused a record').length, 1);
    w.agent.stop();
  });
});
