/**
 * A clock fault on a desired value, end to end (decisions 8): a `.desired`
 * dated 12 hours ahead (a board or a tool with a bad clock) written to the
 * local service reaches the output; a normal `.desired` written after it
 * reaches the output too; and a hub reconnect, whose resync reads the
 * far-future record again (read/last orders by time), does not undo it.
 */
import assert from 'node:assert/strict';
import { adminToken, until, useE2eHarness } from './support/harness.js';

async function writeDesired(url: string, value: boolean, timestamp?: number): Promise<void> {
  const state = { channel: 'relay.desired', value, ...(timestamp === undefined ? {} : { timestamp }) };
  const response = await fetch(`${url}/api/v1/states/write`, {
    method: 'POST',
    headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ device: 'demo-001', states: [state] }),
  });
  assert.equal(response.status, 200, await response.text());
}

async function lastReported(url: string): Promise<unknown> {
  const response = await fetch(`${url}/api/v1/states/read/last?device=demo-001&channels=relay.reported`, {
    headers: { authorization: `Bearer ${adminToken}` },
  });
  const records = (await response.json()) as Array<{ value?: unknown }>;
  return records[0]?.value;
}

describe('e2e: desired values and clock faults', function () {
  this.timeout(30000);
  const h = useE2eHarness();

  it('a far-future .desired followed by a normal one: the normal one reaches the output, also after a resync', async () => {
    const service = await h.startService();
    const url = service.url;
    const run = await h.startAgent(url, undefined, { hub: true });
    try {
      const hub = run.hub;
      assert.ok(hub !== undefined);
      let connects = 0;
      hub.listen((kind) => {
        if (kind === 'connected') connects++;
      });
      await until(() => hub.status === 'connected', 10000);
      const relayWrites = (): Array<number | boolean> =>
        run.pins.history.filter((w) => w.pin === 5).map((w) => w.value);

      await writeDesired(url, true, Date.now() / 1000 + 12 * 3600);
      await until(() => run.pins.output(5) === true);
      await writeDesired(url, false); // stamped with the service's time
      await until(() => run.pins.output(5) === false);
      assert.equal(run.log.find('warn', 'dated ahead of the device clock').length, 1);

      const ignoredBefore = run.agent.counters.desiredIgnored;
      const connectsBefore = connects;
      service.hub.dropAll();
      await until(() => connects > connectsBefore, 10000);
      await until(() => run.agent.counters.desiredIgnored > ignoredBefore, 10000);
      assert.equal(run.pins.output(5), false, 'the resync did not apply the far-future record again');
      assert.deepEqual(relayWrites().slice(-2), [true, false]);
      assert.equal(run.log.find('warn', 'dated ahead of the device clock').length, 1, 'logged once per channel');

      run.agent.flush();
      await until(() => run.agent.counters.queued === 0 && run.agent.delivery === 'idle');
      assert.equal(await lastReported(url), false, 'the echo of the normal record is the last .reported');
    } finally {
      run.stop();
    }
  });
});
