/**
 * Writes take turns (host-sim/service/http/write-turns.ts): never in the
 * turn of the event loop their request was read in, then one per turn, round
 * the access tokens, so a token with many writes queued does not hold back
 * another token's write, and a read that arrives with a write, or between two,
 * is served before the next.
 */
import { strict as assert } from 'node:assert';
import { MessageChannel } from 'node:worker_threads';
import { WriteTurns } from '../../host-sim/service/http/write-turns.js';

describe('service write turns', () => {
  it('queues every write, then lets them run one a turn, round the tokens', async () => {
    const turns = new WriteTurns();
    const order: string[] = [];
    const write = async (name: string, token: string): Promise<void> => {
      await turns.turn(token);
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
    assert.equal(turns.waiting, 6);
    assert.deepEqual(order, [], 'none in the turn it came in');
    await Promise.all(all);
    assert.deepEqual(order, ['a1', 'b1', 'c1', 'a2', 'a3', 'a4']);
    assert.equal(turns.waiting, 0);
    assert.equal(turns.waited, 6);
  });

  it('runs one queued write per turn of the event loop: I/O that arrives during a write is handled before the next', async () => {
    const turns = new WriteTurns();
    const order: string[] = [];
    // A message between threads arrives as I/O does: in the loop's poll phase.
    const { port1, port2 } = new MessageChannel();
    port2.on('message', (name: string) => order.push(`read after ${name}`));
    const write = async (name: string): Promise<void> => {
      await turns.turn('A');
      order.push(name);
      port1.postMessage(name);
    };
    try {
      await Promise.all([write('w1'), write('w2'), write('w3'), write('w4')]);
      while (order.length < 8) await new Promise((resolve) => setImmediate(resolve));
      // Every write waits for a check phase, after the poll that delivers the previous one's I/O.
      const expected = ['w1', 'w2', 'w3', 'w4'].flatMap((w) => [w, `read after ${w}`]);
      assert.deepEqual(order, expected);
    } finally {
      port1.close();
    }
  });

  it('answers a read that arrived in the same turn of the loop as a write before that write', async () => {
    const turns = new WriteTurns();
    const order: string[] = [];
    // Two messages delivered in one poll phase, as two sockets found ready together: a write, then a read.
    const { port1, port2 } = new MessageChannel();
    const written = new Promise<void>((resolve) => {
      port2.on('message', (kind: string) => {
        if (kind === 'read') order.push('read');
        else
          void turns.turn('A').then(() => {
            order.push('write');
            resolve();
          });
      });
    });
    try {
      port1.postMessage('write');
      port1.postMessage('read');
      await written;
      assert.deepEqual(order, ['read', 'write']);
    } finally {
      port1.close();
    }
  });
});
