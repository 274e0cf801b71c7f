/**
 * Splitting a refused batch: which records go, which stay. (That nothing is dropped
 * while the configuration cannot be read is proven through the agent, test/core/agent/follow-config.test.ts.)
 */
import { createCounters } from '../../../src/agent/counters.js';
import type { OutboxBatch } from '../../../src/report/outbox-options.js';
import { splitGone, type KnownChannels } from '../../../src/report/refusal.js';
import { FakeLogger } from '../../fakes/fake-logger.js';
import { assert } from '../../support/assert.js';

const channels: KnownChannels = {
  isConfigured: (key) => key === 'door' || key === 'gps',
  wasConfigured: (key) => key === 'oldgps' || key === 'battery',
};

function setup() {
  const counters = createCounters();
  const logger = new FakeLogger();
  return {
    counters,
    logger,
    handler: { handle: (batch: OutboxBatch) => splitGone(batch, channels, counters, logger) },
  };
}

const state = (channel: string, value: unknown) => ({ channel, value, timestamp: 1767225600 });

describe('report/refusal: splitting a refused batch', () => {
  it('drops the states of channels not configured now, location fields included, and keeps the rest in order', () => {
    const { handler, counters, logger } = setup();
    const records = [
      state('door.reported', true),
      state('battery.reported', 3.7),
      state('gps.lat.reported', 47.1),
      state('oldgps.lat.reported', 1),
      state('oldgps.lon.reported', 2),
      state('door.reported', false),
    ];
    const outcome = handler.handle({ seq: 1, lane: 's', count: 6, json: JSON.stringify(records) });
    assert.deepEqual(
      outcome,
      [records[0], records[2], records[5]].map((r) => JSON.stringify(r)),
    );
    assert.equal(counters.rejected, 3);
    assert.deepEqual(
      logger.find('warn', 'channel gone').map((l) => l.fields),
      [
        { key: 'battery', records: 1 },
        { key: 'oldgps', records: 2 },
      ],
    );
  });

  it('drops a measurement only when its metric was a channel that is gone (application metrics stay)', () => {
    const { handler, counters } = setup();
    const records = [
      { metric: 'energy', value: 1, timestamp: 1 },
      { metric: 'oldgps', value: { lat: 1, lon: 2 }, timestamp: 1 },
      { metric: 'gps', value: { lat: 1, lon: 2 }, timestamp: 1 },
    ];
    const outcome = handler.handle({ seq: 1, lane: 'm', count: 3, json: JSON.stringify(records) });
    assert.deepEqual(
      outcome,
      [records[0], records[2]].map((r) => JSON.stringify(r)),
    );
    assert.equal(counters.rejected, 1);
  });

  it('finds nothing to split when no record names a removed channel', () => {
    const { handler, counters, logger } = setup();
    const ok = JSON.stringify([state('door.reported', true), { no: 'name' }, 7]);
    assert.equal(handler.handle({ seq: 1, lane: 's', count: 3, json: ok }), undefined);
    assert.equal(counters.rejected, 0);
    assert.equal(logger.lines.length, 0);
  });

  it('leaves an empty batch when every record was of a removed channel', () => {
    const { handler, counters } = setup();
    const json = JSON.stringify([state('battery.reported', 1), state('x.reported', 2)]);
    assert.deepEqual(handler.handle({ seq: 1, lane: 's', count: 2, json }), []);
    assert.equal(counters.rejected, 2);
  });
});
