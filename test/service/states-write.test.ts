/**
 * State writes (spec 4.6): value xor error, error only on `.reported`, known
 * channels and location forms, timestamps (default now, Unix seconds, ISO
 * 8601), and what read/last keeps when points arrive out of order.
 */
import { strict as assert } from 'node:assert';
import { demo, seconds, stateApi, useTestService } from './helpers.js';

type Obj = Record<string, unknown>;
const P = demo.product;

describe('service state writes', () => {
  const t = useTestService();
  const { write, read } = stateApi(t);

  it('writes with a default timestamp and reads records with every field', async () => {
    assert.equal(await write([{ channel: 'temperature.reported', value: 21.5 }]), 200);
    const writtenAt = seconds(t.clock);
    t.clock.nowMs += 1000; // the range stop (now) is exclusive
    assert.deepEqual(await read('read?devices=demo-001&channels=temperature.reported'), [
      {
        channel: `${P}:temperature.reported`,
        value: 21.5,
        aggregated: 'last',
        entity: demo.device1,
        timestamp: writtenAt,
      },
    ]);
  });

  it('accepts numbers and ISO 8601 timestamps, keeping millisecond precision', async () => {
    const s = seconds(t.clock, -5000) + 0.123;
    await write([
      { channel: 'door.reported', value: true, timestamp: s },
      { channel: 'note.reported', value: 42, timestamp: new Date(t.clock.nowMs - 1000).toISOString() },
    ]);
    const recs = await read('read?devices=demo-001');
    assert.deepEqual(
      recs.map((r) => [r['channel'], r['value'], r['timestamp']]),
      [
        [`${P}:door.reported`, true, s],
        [`${P}:note.reported`, 42, seconds(t.clock, -1000)],
      ],
    );
  });

  it('enforces value xor error, error only on .reported, known channels and location forms', async () => {
    assert.equal(await write([{ channel: 'relay.reported', value: true, error: -5 }]), 400);
    assert.equal(await write([{ channel: 'relay.reported' }]), 400);
    assert.equal(await write([{ channel: 'relay.desired', error: -5 }]), 400);
    assert.equal(await write([{ channel: 'relay.reported', error: -5.5 }]), 400);
    assert.equal(await write([{ channel: 'relay.reported', error: 5 }]), 400);
    assert.equal(await write([{ channel: 'ghost.reported', value: 1 }]), 400);
    assert.equal(await write([{ channel: 'relay', value: 1 }]), 400);
    assert.equal(await write([{ channel: 'temperature.lat.reported', value: 1 }]), 400);
    assert.equal(await write([{ channel: 'gps.speed.reported', value: 1 }]), 400);
    assert.equal(await write([{ channel: 'relay.reported', value: 1, timestamp: 'yesterday' }]), 400);
    assert.equal(await write([{ channel: 'relay.reported', value: 1, timestamp: '-1h' }]), 400);
    assert.equal(
      await write([
        { channel: 'relay.reported', error: -110 },
        { channel: 'gps.lat.reported', value: 52.5 },
      ]),
      200,
    );
    const recs = await read('read/last?device=demo-001');
    assert.deepEqual(
      recs.map((r) => [r['channel'], r['value'], r['error']]),
      [
        [`${P}:gps.lat.reported`, 52.5, undefined],
        [`${P}:relay.reported`, undefined, -110],
      ],
    );
    assert.equal('value' in (recs[1] as Obj), false);
  });

  it('keeps the newest value in read/last when an older point arrives later, and replaces same-time points', async () => {
    await write([{ channel: 'relay.reported', value: true, timestamp: seconds(t.clock, -1000) }]);
    await write([{ channel: 'relay.reported', value: false, timestamp: seconds(t.clock, -5000) }]);
    assert.deepEqual(
      (await read('read/last?device=demo-001')).map((r) => r['value']),
      [true],
    );
    await write([{ channel: 'relay.reported', value: false, timestamp: seconds(t.clock, -1000) }]);
    assert.deepEqual(
      (await read('read/last?device=demo-001')).map((r) => r['value']),
      [false],
    );
    assert.equal((await read('read?devices=demo-001')).length, 2);
  });
});
