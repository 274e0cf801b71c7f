/** The refusal handler: which records of a refused batch go, which stay, and when nothing is decided. */
import { createCounters } from '../../../src/agent/counters.js';
import { AgentError } from '../../../src/errors.js';
import { RefusalHandler, type KnownChannels } from '../../../src/report/refusal.js';
import { FakeLogger } from '../../fakes/fake-logger.js';
import { assert } from '../../support/assert.js';

const channels: KnownChannels = {
  isConfigured: (key) => key === 'door' || key === 'gps',
  wasConfigured: (key) => key === 'oldgps' || key === 'battery',
};

function setup(refresh: () => Promise<void> = () => Promise.resolve()) {
  const counters = createCounters();
  const logger = new FakeLogger();
  return { counters, logger, handler: new RefusalHandler(refresh, channels, counters, logger) };
}

const state = (channel: string, value: unknown) => ({ channel, value, timestamp: 1767225600 });

describe('report/refusal: splitting a refused batch', () => {
  it('drops the states of channels not configured now, location fields included, and keeps the rest in order', async () => {
    const { handler, counters, logger } = setup();
    const records = [
      state('door.reported', true),
      state('battery.reported', 3.7),
      state('gps.lat.reported', 47.1),
      state('oldgps.lat.reported', 1),
      state('oldgps.lon.reported', 2),
      state('door.reported', false),
    ];
    const outcome = await handler.handle({ seq: 1, lane: 's', count: 6, json: JSON.stringify(records) });
    assert.deepEqual(outcome, {
      kind: 'split',
      json: JSON.stringify([records[0], records[2], records[5]]),
      count: 3,
    });
    assert.equal(counters.rejected, 3);
    assert.deepEqual(
      logger.find('warn', 'no longer configured').map((l) => l.fields),
      [
        { key: 'battery', records: 1 },
        { key: 'oldgps', records: 2 },
      ],
    );
  });

  it('drops a measurement only when its metric was a channel that is gone (application metrics stay)', async () => {
    const { handler, counters } = setup();
    const records = [
      { metric: 'energy', value: 1, timestamp: 1 },
      { metric: 'oldgps', value: { lat: 1, lon: 2 }, timestamp: 1 },
      { metric: 'gps', value: { lat: 1, lon: 2 }, timestamp: 1 },
    ];
    const outcome = await handler.handle({ seq: 1, lane: 'm', count: 3, json: JSON.stringify(records) });
    assert.deepEqual(outcome, { kind: 'split', json: JSON.stringify([records[0], records[2]]), count: 2 });
    assert.equal(counters.rejected, 1);
  });

  it('answers malformed when nothing names a removed channel, or the batch is not a JSON array', async () => {
    const { handler, counters } = setup();
    const ok = JSON.stringify([state('door.reported', true), { no: 'name' }]);
    assert.deepEqual(await handler.handle({ seq: 1, lane: 's', count: 2, json: ok }), { kind: 'malformed' });
    assert.deepEqual(await handler.handle({ seq: 2, lane: 's', count: 1, json: '[{"chan' }), { kind: 'malformed' });
    assert.deepEqual(await handler.handle({ seq: 3, lane: 's', count: 1, json: '{"a":1}' }), { kind: 'malformed' });
    assert.equal(counters.rejected, 0);
  });

  it('answers retry, dropping nothing, while the configuration cannot be read', async () => {
    const { handler, counters } = setup(() => Promise.reject(new AgentError('network', 'fake: down')));
    const json = JSON.stringify([state('battery.reported', 1)]);
    assert.deepEqual(await handler.handle({ seq: 1, lane: 's', count: 1, json }), {
      kind: 'retry',
      reason: 'fake: down',
    });
    assert.equal(counters.rejected, 0);
  });
});
