/**
 * State reads (spec 4.6, decisions 6): location and wildcard forms, time
 * parameters (numbers, ISO 8601, Durations), windows with every aggregate,
 * and read/last with aggregatedLast.
 */
import { strict as assert } from 'node:assert';
import { demo, demoFixture, seconds, stateApi, useTestService } from './helpers.js';

type Obj = Record<string, unknown>;
const P = demo.product;

/** The demo fixture plus one channel per aggregate. */
function aggregateFixture(): ReturnType<typeof demoFixture> {
  const f = demoFixture();
  const product = f.products[0];
  if (!product) throw new Error('demo fixture without product');
  const add = (key: string, aggregated: string, aggregatedLast = 'last'): void => {
    product.channels.push({
      uid: `00000000-0000-4000-8000-${key.padStart(12, '0')}`,
      key,
      type: 'custom',
      aggregated,
      aggregatedLast,
    });
  };
  add('mx', 'max');
  add('mn', 'min');
  add('ls', 'last');
  add('dv', 'derivative.1m', 'derivative.1s');
  add('dh', 'derivative.1h', 'derivative.1h');
  return f;
}

describe('service state reads', () => {
  const t = useTestService(() => ({ fixture: aggregateFixture() }));
  const { write, read } = stateApi(t);

  it('reads the wildcard forms and repeated or comma-separated channel lists', async () => {
    await write([
      { channel: 'relay.desired', value: true },
      { channel: 'relay.reported', value: false },
      { channel: 'gps.lon.reported', value: 13.4 },
      { channel: 'dimmer.desired', value: 40 },
    ]);
    t.clock.nowMs += 1000;
    const names = (recs: Obj[]): unknown[] => recs.map((r) => r['channel']);
    assert.deepEqual(names(await read('read/last?device=demo-001&channels=*.desired')), [
      `${P}:dimmer.desired`,
      `${P}:relay.desired`,
    ]);
    assert.deepEqual(names(await read('read?devices=demo-001&channels=*.reported')), [
      `${P}:gps.lon.reported`,
      `${P}:relay.reported`,
    ]);
    assert.deepEqual(names(await read('read/last?device=demo-001&channels=relay.reported,gps.lon.reported')), [
      `${P}:gps.lon.reported`,
      `${P}:relay.reported`,
    ]);
    assert.deepEqual(names(await read('read/last?device=demo-001&channels=relay.reported&channels=*.desired')), [
      `${P}:dimmer.desired`,
      `${P}:relay.desired`,
      `${P}:relay.reported`,
    ]);
    assert.equal((await t.get('/api/v1/states/read/last?device=demo-001&channels=ghost.desired')).status, 400);
    assert.equal((await t.get('/api/v1/states/read/last?device=demo-001&channels=*.sideways')).status, 400);
  });

  it('reads one device, several devices, or every device below an entity', async () => {
    await write([{ channel: 'relay.reported', value: true }], 'demo-001');
    await write([{ channel: 'relay.reported', value: false }], 'demo-002');
    t.clock.nowMs += 1000;
    const entities = async (q: string): Promise<unknown[]> => (await read(q)).map((r) => r['entity']);
    assert.deepEqual(await entities('read?devices=demo-001,demo-002'), [demo.device1, demo.device2]);
    assert.deepEqual(await entities(`read?entities=${demo.product}`), [demo.device1, demo.device2]);
    assert.deepEqual(await entities(`read?entities=${demo.location}`), [demo.device1]);
    assert.deepEqual(await entities(`read/last?entity=${demo.product}`), [demo.device1, demo.device2]);
    assert.deepEqual(await entities('read/last'), [demo.device1, demo.device2]);
    assert.deepEqual(await entities('read/last?device=demo-002'), [demo.device2]);
    const own = await t.get('/api/v1/states/read/last', demo.token2);
    assert.deepEqual(
      (own.json as Obj[]).map((r) => r['entity']),
      [demo.device2],
    );
  });

  it('applies time ranges: start included, stop excluded, Durations relative to now', async () => {
    const at = (offsetMs: number, value: number): Obj => ({
      channel: 'ls.reported',
      value,
      timestamp: seconds(t.clock, offsetMs),
    });
    await write([at(-7_200_000, 1), at(-3_600_000, 2), at(-60_000, 3), at(-1, 4)]);
    const values = async (q: string): Promise<unknown[]> =>
      (await read(`read?devices=demo-001&${q}`)).map((r) => r['value']);
    assert.deepEqual(await values(''), [2, 3, 4]); // default start -1h, stop now
    assert.deepEqual(await values('timeRangeStart=-3h'), [1, 2, 3, 4]);
    assert.deepEqual(await values('timeRangeStart=-2h&timeRangeStop=-1h'), [1]);
    assert.deepEqual(await values('timeRangeStart=-1h1m&timeRangeStop=-1m'), [2]);
    assert.deepEqual(await values(`timeRangeStart=${seconds(t.clock, -60_000)}`), [3, 4]);
    const iso = new Date(t.clock.nowMs - 60_000).toISOString();
    assert.deepEqual(await values(`timeRangeStart=${encodeURIComponent(iso)}`), [3, 4]);
    assert.deepEqual(await values('timeRangeStart=-1w2d'), [1, 2, 3, 4]);
    assert.deepEqual(await values('timeRangeStart=-1mo'), [1, 2, 3, 4]);
    assert.deepEqual(await values('timeRangeStart=-500ms'), [4]);
    for (const bad of ['-1m1h', '-1x', 'soon', '-1.5h', '-1h-', '1h1h']) {
      const r = await t.get(`/api/v1/states/read?devices=demo-001&timeRangeStart=${encodeURIComponent(bad)}`);
      assert.equal(r.status, 400, bad);
    }
    assert.equal((await t.get('/api/v1/states/read?timeRangeStart=-1m&timeRangeStop=-2m')).status, 400);
    assert.equal((await t.get('/api/v1/states/read?timeRangeStart=-1m&timeRangeStop=-1m')).status, 400);
    assert.deepEqual(
      (await read('read/last?device=demo-001&timeRangeStart=-30m')).map((r) => r['value']),
      [4],
    );
    assert.deepEqual(await read(`read/last?device=demo-001&timeRangeStart=${seconds(t.clock)}`), []);
  });

  it('aggregates windows aligned to the epoch, stamped at the window stop', async () => {
    const pts = (key: string, values: [number, number][]): Obj[] =>
      values.map(([offsetS, value]) => ({
        channel: `${key}.reported`,
        value,
        timestamp: seconds(t.clock, offsetS * 1000),
      }));
    const data: [number, number][] = [
      [-50, 10],
      [-40, 20],
      [-35, 60],
      [-10, 30],
    ];
    await write([...pts('temperature', data), ...pts('mx', data), ...pts('mn', data), ...pts('ls', data)]);
    const w = async (key: string): Promise<unknown[]> =>
      (await read(`read?devices=demo-001&channels=${key}.reported&timeRangeStart=-1m&windowPeriod=30s`)).map((r) => [
        r['value'],
        r['timestamp'],
        r['aggregated'],
      ]);
    const w1 = seconds(t.clock, -30_000);
    const w2 = seconds(t.clock);
    assert.deepEqual(await w('temperature'), [
      [30, w1, 'mean'],
      [30, w2, 'mean'],
    ]);
    assert.deepEqual(await w('mx'), [
      [60, w1, 'max'],
      [30, w2, 'max'],
    ]);
    assert.deepEqual(await w('mn'), [
      [10, w1, 'min'],
      [30, w2, 'min'],
    ]);
    assert.deepEqual(await w('ls'), [
      [60, w1, 'last'],
      [30, w2, 'last'],
    ]);
    // The last window ends at the range stop; windowPeriod as a number of seconds.
    const cut = await read(
      `read?devices=demo-001&channels=mx.reported&timeRangeStart=-1m&timeRangeStop=-20s&windowPeriod=60`,
    );
    assert.deepEqual(
      cut.map((r) => [r['value'], r['timestamp']]),
      [[60, seconds(t.clock, -20_000)]],
    );
    for (const bad of ['0', '-1m', 'x', '1mo']) {
      assert.equal((await t.get(`/api/v1/states/read?windowPeriod=${bad}`)).status, 400, bad);
    }
  });

  it('yields the last derivative per window and falls back to last for non-numeric values', async () => {
    await write([
      { channel: 'dv.reported', value: 0, timestamp: seconds(t.clock, -50_000) },
      { channel: 'dv.reported', value: 10, timestamp: seconds(t.clock, -40_000) }, // +60/min
      { channel: 'dv.reported', value: 15, timestamp: seconds(t.clock, -10_000) }, // +10/min
      { channel: 'mx.reported', value: 5, timestamp: seconds(t.clock, -50_000) },
      { channel: 'mx.reported', value: 'text', timestamp: seconds(t.clock, -40_000) },
      { channel: 'mx.reported', error: -5, timestamp: seconds(t.clock, -10_000) },
    ]);
    const recs = await read(
      'read?devices=demo-001&channels=dv.reported,mx.reported&timeRangeStart=-1m&windowPeriod=30s',
    );
    assert.deepEqual(
      recs.map((r) => [r['channel'], r['value'] ?? r['error'], r['aggregated'], r['timestamp']]),
      [
        [`${P}:dv.reported`, 60, 'derivative.1m', seconds(t.clock, -30_000)],
        [`${P}:dv.reported`, 10, 'derivative.1m', seconds(t.clock)],
        [`${P}:mx.reported`, 'text', 'last', seconds(t.clock, -30_000)],
        [`${P}:mx.reported`, -5, 'last', seconds(t.clock)],
      ],
    );
    // Without windowPeriod: raw records, each aggregated "last".
    const raw = await read('read?devices=demo-001&channels=dv.reported');
    assert.deepEqual(
      raw.map((r) => [r['value'], r['aggregated']]),
      [
        [0, 'last'],
        [10, 'last'],
        [15, 'last'],
      ],
    );
  });

  it('read/last applies aggregatedLast: derivative over the two newest points', async () => {
    await write([
      { channel: 'dv.reported', value: 10, timestamp: seconds(t.clock, -20_000) },
      { channel: 'dv.reported', value: 30, timestamp: seconds(t.clock, -10_000) },
      { channel: 'dh.reported', value: 1, timestamp: seconds(t.clock, -10_000) },
    ]);
    const recs = await read('read/last?device=demo-001&channels=dv.reported,dh.reported');
    // dh has a single point: no derivative yet.
    assert.deepEqual(recs, [
      {
        channel: `${P}:dv.reported`,
        value: 2,
        aggregated: 'derivative.1s',
        entity: demo.device1,
        timestamp: seconds(t.clock, -10_000),
      },
    ]);
    await write([{ channel: 'dh.reported', value: 3, timestamp: seconds(t.clock, -5_000) }]);
    const dh = await read('read/last?device=demo-001&channels=dh.reported');
    assert.deepEqual(
      dh.map((r) => [r['value'], r['aggregated']]),
      [[1440, 'derivative.1h']],
    );
  });
});
