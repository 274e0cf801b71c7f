/**
 * Strict time (decisions 6): write timestamps are Unix seconds or ISO 8601
 * with real calendar dates, from 2000-01-01 to one day after the server's
 * time; read ranges are Unix seconds, ISO 8601 or negative Durations inside
 * 1970..9999; everything else is a 400 naming the parameter or entry.
 */
import { strict as assert } from 'node:assert';
import { parseIso } from '../../host-sim/service/time.js';
import { seconds, stateApi, useTestService } from './helpers.js';

type Obj = Record<string, unknown>;

describe('service strict time', () => {
  const t = useTestService();
  const { read } = stateApi(t);
  const write = async (timestamp: unknown): Promise<{ status: number; detail: string }> => {
    const r = await t.post('/api/v1/states/write', {
      device: 'demo-001',
      states: [
        { channel: 'relay.reported', value: true },
        { channel: 'temperature.reported', value: 21, timestamp },
      ],
    });
    return { status: r.status, detail: String((r.json as Obj | undefined)?.['detail']) };
  };

  it('refuses a timestamp in milliseconds, names the entry, and read/last keeps answering', async () => {
    const before = await write(seconds(t.clock, -1000));
    assert.equal(before.status, 200);
    const ms = await write(t.clock.nowMs);
    assert.equal(ms.status, 400);
    assert.match(ms.detail, /^states\[1\]\.timestamp: .*more than a day after.*milliseconds/);
    t.clock.nowMs += 5000;
    assert.equal((await write(seconds(t.clock))).status, 200);
    const last = await read('read/last?device=demo-001&channels=temperature.reported');
    assert.equal(last[0]?.['timestamp'], seconds(t.clock));
  });

  it('refuses Durations, numeric strings, impossible dates and times outside 2000 .. now + 1 day', async () => {
    for (const bad of ['1h', '-1h', '1700000000', '2024-02-30', '2023-02-29T00:00:00Z', '2024-01-01T24:00:00Z']) {
      const r = await write(bad);
      assert.equal(r.status, 400, bad);
      assert.match(r.detail, /^states\[1\]\.timestamp: /, bad);
    }
    assert.equal((await write('1999-12-31T23:59:59Z')).status, 400);
    assert.equal((await write(seconds(t.clock, 86_400_000 + 1000))).status, 400);
    assert.equal((await write(Number.MAX_VALUE)).status, 400);
    assert.equal((await write(seconds(t.clock, 86_400_000 - 1000))).status, 200);
    assert.equal((await write('2000-01-01T00:00:00Z')).status, 200);
    assert.equal((await write('2024-02-29T12:00:00.5+01:00')).status, 200);
  });

  it('answers 400 for read ranges that overflow, are positive Durations or are nonsense', async () => {
    for (const q of [
      'timeRangeStart=-99999999999y',
      'timeRangeStart=-99999999999999999999h',
      'timeRangeStart=1h',
      'timeRangeStart=-1e400',
      'timeRangeStop=1e400',
      'timeRangeStart=NaN',
      'timeRangeStart=2024-02-30',
      'windowPeriod=1e400',
      'windowPeriod=NaN',
    ]) {
      const r = await t.get(`/api/v1/states/read?devices=demo-001&${q}`);
      assert.equal(r.status, 400, q);
      assert.equal(r.headers.get('content-type'), 'application/problem+json', q);
      assert.match(String((r.json as Obj)['detail']), /^(timeRangeStart|timeRangeStop|windowPeriod)/, q);
    }
    const r = await t.get('/api/v1/states/read/last?device=demo-001&timeRangeStart=-99999999999y');
    assert.equal(r.status, 400);
  });

  it('reads ISO 8601 strictly: real dates, zones, fractions', () => {
    assert.equal(parseIso('2024-02-29'), Date.UTC(2024, 1, 29));
    assert.equal(parseIso('2024-02-29T10:00:00.25Z'), Date.UTC(2024, 1, 29, 10, 0, 0, 250));
    assert.equal(parseIso('2024-02-29T10:00:00-0230'), Date.UTC(2024, 1, 29, 12, 30));
    assert.equal(parseIso('2024-02-29 10:00'), Date.UTC(2024, 1, 29, 10));
    for (const bad of [
      '2024-02-30',
      '2024-13-01',
      '2024-00-10',
      '2024-01-01T10:60:00Z',
      '2024-01-01T10:00:00+24:00',
      '24-01-01',
    ])
      assert.equal(parseIso(bad), undefined, bad);
  });
});
