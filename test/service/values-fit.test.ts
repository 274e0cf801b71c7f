/**
 * Values fit their channel (decisions 10) and a device token learns nothing of
 * other devices (uniform 403). Each limit is tried at the limit and past it; the
 * attack run's values out of range (`lat: 1e308`, `error: -1e308`, a 900 KB pad
 * inside a location) and its enumeration (404 against 403) are cases here.
 */
import { strict as assert } from 'node:assert';
import { defaultLimits } from '../../host-sim/service/limits.js';
import type { ServiceOptions } from '../../host-sim/service/index.js';
import { demo, demoFixture, quietHub, useTestService } from './helpers.js';

type Obj = Record<string, unknown>;

/** The demo fixture with a 64-bit Modbus channel and a string-valued (typeless custom) channel. */
function fixture(): Partial<ServiceOptions> {
  const f = demoFixture();
  const p = f.products[0];
  if (!p) throw new Error('no product');
  p.channels.push(
    { uid: '00000000-0000-4000-8000-000000000001', key: 'energy', type: 'modbus', dataType: 'uint64', bus: 'rs485' },
    { uid: '00000000-0000-4000-8000-000000000002', key: 'label', type: 'custom', customType: 'text' },
  );
  return { ...quietHub, fixture: f };
}

describe('service values fit their channel', () => {
  const t = useTestService(fixture);
  const write = async (states: Obj[], token?: string): Promise<{ status: number; detail: string }> => {
    const r = await t.post('/api/v1/states/write', { device: 'demo-001', states }, token);
    return { status: r.status, detail: String((r.json as Obj | undefined)?.['detail'] ?? '') };
  };
  const measure = async (value: unknown): Promise<{ status: number; detail: string }> => {
    const r = await t.post('/api/v1/measurements/write', {
      device: 'demo-001',
      measurements: [{ metric: 'gps', value }],
    });
    return { status: r.status, detail: String((r.json as Obj | undefined)?.['detail'] ?? '') };
  };

  it('bounds a location: lat at +-90 and lon at +-180 pass, past them (and 1e308) is 400 naming the entry', async () => {
    for (const [channel, ok, bad] of [
      ['gps.lat.reported', [90, -90], [90.000001, -90.5, 1e308]],
      ['gps.lon.desired', [180, -180], [180.5, -1e308]],
    ] as const) {
      for (const v of ok) assert.equal((await write([{ channel, value: v }])).status, 200, `${channel} ${v}`);
      for (const v of bad) {
        const r = await write([
          { channel: 'temperature.reported', value: 1 },
          { channel, value: v },
        ]);
        assert.equal(r.status, 400, `${channel} ${v}`);
        assert.match(r.detail, /^states\[1\]\.value: (lat|lon) must be in/);
      }
    }
    assert.equal((await write([{ channel: 'gps.alt.reported', value: 'high' }])).status, 400);
  });

  it('takes errors from -1 to -4095 only', async () => {
    assert.equal((await write([{ channel: 'temperature.reported', error: -4095 }])).status, 200);
    assert.equal((await write([{ channel: 'temperature.reported', error: -1 }])).status, 200);
    for (const error of [-4096, -1e308, 0, -1.5]) {
      const r = await write([{ channel: 'temperature.reported', error }]);
      assert.equal(r.status, 400, String(error));
      assert.match(r.detail, /^states\[0\]\.error: expected a negative POSIX error number/);
    }
  });

  it('takes booleans on boolean channels, finite numbers on number channels, decimal strings on 64-bit ones', async () => {
    assert.equal((await write([{ channel: 'relay.desired', value: true }])).status, 200);
    assert.match(
      (await write([{ channel: 'relay.desired', value: 1 }])).detail,
      /states\[0\]\.value: this channel takes a boolean/,
    );
    assert.match((await write([{ channel: 'door.reported', value: 'open' }])).detail, /takes a boolean/);
    assert.match((await write([{ channel: 'dimmer.desired', value: 'full' }])).detail, /takes a finite number/);
    assert.match((await write([{ channel: 'pump.desired', value: 0 }])).detail, /takes a boolean/);
    assert.equal((await write([{ channel: 'energy.reported', value: '18446744073709551615' }])).status, 200);
    assert.equal((await write([{ channel: 'energy.reported', value: 12 }])).status, 200);
    assert.match((await write([{ channel: 'energy.reported', value: '12kWh' }])).detail, /decimal integer string/);
  });

  it('bounds a string state at maxStateStringBytes UTF-8 bytes', async () => {
    const max = defaultLimits.maxStateStringBytes;
    assert.equal(
      (await write([{ channel: 'label.reported', value: '€'.repeat(max / 4) + 'a'.repeat(max / 4) }])).status,
      200,
    );
    const past = await write([{ channel: 'label.reported', value: 'a'.repeat(max + 1) }]);
    assert.equal(past.status, 400);
    assert.match(past.detail, /states\[0\]\.value: a string value is at most 1024 UTF-8 bytes/);
  });

  it('bounds a location measurement: its fields only, finite, in range, at most the object limit', async () => {
    assert.equal((await measure({ lat: 52.5, lon: 13.4, alt: 34, sats: 9 })).status, 200);
    assert.match((await measure({ lat: 1e308, lon: 0 })).detail, /measurements\[0\]\.value: lat must be in/);
    assert.match((await measure({ lat: 1, lon: 2, pad: 'x'.repeat(900_000) })).detail, /at most 1024 bytes of JSON/);
    assert.match((await measure({ lat: 1, lon: 2, note: 'x' })).detail, /"note" is not one of lat, lon/);
    assert.match((await measure(5)).detail, /a location channel takes an object/);
    const last = await t.get('/api/v1/measurements/read/last?device=demo-001&metrics=gps');
    assert.deepEqual(((last.json as Obj[])[0] as Obj)['value'], { lat: 52.5, lon: 13.4, alt: 34, sats: 9 });
  });
});

describe('service uniform 403 for a device token', () => {
  const t = useTestService(quietHub);

  it('answers the same 403 for another device, known or not, on every route that names one', async () => {
    const paths = [
      'devices/get?device=',
      'properties/get?device=',
      'channels/list?device=',
      'states/read/last?device=',
      'measurements/read/last?device=',
      'states/read?devices=',
      'measurements/read?devices=',
      'devices/get?entity=',
      'entities/relations/get?entity=',
    ];
    for (const path of paths) {
      const answers: string[] = [];
      for (const other of ['demo-002', demo.device2, 'no-such-device', 'a0d5e6f7-4152-4d8e-9f90-00000000ffff']) {
        const r = await t.get(`/api/v1/${path}${other}`, demo.token1);
        assert.equal(r.status, 403, `${path}${other}: ${r.text}`);
        answers.push(String((r.json as Obj)['detail']));
      }
      assert.equal(new Set(answers).size, 1, `${path}: one answer whatever the device (${answers.join(' | ')})`);
    }
    for (const [path, body] of [
      ['states/write', { states: [] }],
      ['properties/set', { values: {} }],
    ] as const) {
      for (const device of ['demo-002', 'ghost']) {
        const r = await t.post(`/api/v1/${path}`, { device, ...body }, demo.token1);
        assert.equal(r.status, 403, `${path} ${device}`);
      }
    }
    assert.equal((await t.get('/api/v1/devices/get?device=demo-001', demo.token1)).status, 200);
    assert.equal((await t.get(`/api/v1/states/read?devices=${demo.device1}`, demo.token1)).status, 200);
    // An admin still learns that a device does not exist.
    assert.equal((await t.get('/api/v1/devices/get?device=no-such-device')).status, 404);
  });
});
