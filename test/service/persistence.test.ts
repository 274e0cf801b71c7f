/**
 * Storage survives a restart (docs/service.md): states, measurements, the latest-value
 * table and catalog changes (device details, properties, relations) are read
 * back from the same SQLite file by a new service.
 */
import { strict as assert } from 'node:assert';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import tmp from 'tmp';
import { demo, seconds, startTestService } from './helpers.js';

describe('service persistence', () => {
  let dir: tmp.DirResult;
  beforeEach(() => {
    dir = tmp.dirSync({ unsafeCleanup: true });
  });
  afterEach(() => {
    dir.removeCallback();
  });

  it('reads back stored data and catalog changes after a restart', async () => {
    const dbPath = join(dir.name, 'dds.db');
    const first = await startTestService({ dbPath });
    await first.post('/api/v1/states/write', {
      device: 'demo-001',
      states: [
        { channel: 'temperature.reported', value: 21, timestamp: seconds(first.clock, -2000) },
        { channel: 'relay.desired', value: true, timestamp: seconds(first.clock, -1000) },
      ],
    });
    await first.post('/api/v1/measurements/write', {
      device: 'demo-001',
      measurements: [{ metric: 'gps', value: { lat: 1, lon: 2 }, timestamp: seconds(first.clock, -1000) }],
    });
    await first.post('/api/v1/properties/set', { device: 'demo-001', values: { 'sample-rate': 7 } });
    await first.post('/api/v1/devices/set', { device: 'demo-002', values: { name: 'Kept' } });
    await first.post('/api/v1/entities/relations/insert', { entity: demo.device2, parentEntity: demo.location });
    await first.service.close();
    assert.ok(existsSync(dbPath));

    const second = await startTestService({ dbPath });
    try {
      const states = (await second.get('/api/v1/states/read?devices=demo-001')).json as Record<string, unknown>[];
      assert.deepEqual(
        states.map((r) => [r['channel'], r['value']]),
        [
          [`${demo.product}:relay.desired`, true],
          [`${demo.product}:temperature.reported`, 21],
        ],
      );
      const last = (await second.get('/api/v1/states/read/last?device=demo-001&channels=*.desired')).json as unknown[];
      assert.equal(last.length, 1);
      const m = (await second.get('/api/v1/measurements/read/last?device=demo-001')).json as Record<string, unknown>[];
      assert.deepEqual(m[0]?.['value'], { lat: 1, lon: 2 });
      const props = (await second.get('/api/v1/properties/get?device=demo-001')).json as Record<string, unknown>;
      assert.equal(props['sample-rate'], 7);
      const d2 = (await second.get('/api/v1/devices/get?device=demo-002')).json as Record<string, unknown>;
      assert.equal(d2['name'], 'Kept');
      const under = (await second.get(`/api/v1/devices/list?entity=${demo.location}`)).json as unknown[];
      assert.equal(under.length, 2);
    } finally {
      await second.service.close();
    }
  });
});
