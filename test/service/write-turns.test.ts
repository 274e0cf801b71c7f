/**
 * Writes take turns (host-sim/service/http/write-turns.ts): one per turn of
 * the event loop, round the access tokens, so a token with many writes queued
 * does not hold back another token's write, and what arrives between two
 * writes (a read) is served before the next.
 */
import { strict as assert } from 'node:assert';
import { MessageChannel } from 'node:worker_threads';
import { WriteTurns } from '../../host-sim/service/http/write-turns.js';

describe('service write turns', () => {
  it('lets the first write of a loop turn run at once and queues the rest, round the tokens', async () => {
    const turns = new WriteTurns();
    const order: string[] = [];
    const write = async (name: string, token: string): Promise<void> => {
      const turn = turns.turn(token);
      if (turn !== undefined) await turn;
      order.push(name);
    };
    const all = [
      write('a1', 'A'),
      write('a2', 'A'),
      write('a3', 'A'),
      write('a4', 'A'),
      write('b1', 'B'),
      write('c1', 'C'),
    ];
    assert.equal(turns.waiting, 5);
    await Promise.all(all);
    assert.deepEqual(order, ['a1', 'a2', 'b1', 'c1', 'a3', 'a4']);
    assert.equal(turns.waiting, 0);
    assert.equal(turns.waited, 5);
  });

  it('runs one queued write per turn of the event loop: I/O that arrives during a write is handled before the next', async () => {
    const turns = new WriteTurns();
    const order: string[] = [];
    // A message between threads arrives as I/O does: in the loop's poll phase.
    const { port1, port2 } = new MessageChannel();
    port2.on('message', (name: string) => order.push(`read after ${name}`));
    const write = async (name: string): Promise<void> => {
      const turn = turns.turn('A');
      if (turn !== undefined) await turn;
      order.push(name);
      port1.postMessage(name);
    };
    try {
      await Promise.all([write('w1'), write('w2'), write('w3'), write('w4')]);
      while (order.length < 8) await new Promise((resolve) => setImmediate(resolve));
      // Every write but the first waits for a check phase, after the poll that delivers the previous one's I/O.
      const expected = ['w1', 'w2', 'w3', 'w4'].flatMap((w) => [w, `read after ${w}`]);
      assert.deepEqual(order, expected);
    } finally {
      port1.close();
    }
  });

  it('lets a write run at once when none waits and the loop has turned', async () => {
    const turns = new WriteTurns();
    assert.equal(turns.turn('A'), undefined);
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(turns.turn('B'), undefined);
    assert.equal(turns.waited, 0);
  });
});
