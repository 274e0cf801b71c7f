/**
 * The fleet's inputs: the device list from a fixture or a CSV, the fixture
 * generator (its output is a valid fixture the service loads, one token per
 * device), scenarios, and the storm bound and latency histogram of the summary.
 */
import fc from 'fast-check';
import { Fleet } from '../../host-sim/fleet/fleet.js';
import { fleetDeviceKey, generateFleetFixture, fleetProductUid } from '../../host-sim/fleet/generate.js';
import { LatencyHistogram } from '../../host-sim/fleet/meter.js';
import { parseRoster } from '../../host-sim/fleet/roster.js';
import { parseFleetScenario } from '../../host-sim/fleet/scenario.js';
import { stormBoundPerS } from '../../host-sim/fleet/summary.js';
import { validateFixture } from '../../host-sim/service/fixture.js';
import { FakeClock } from '../fakes/fake-clock.js';
import { FakeHttp } from '../fakes/fake-http.js';
import { assert } from '../support/assert.js';

let seed = 0;
const counting = (n: number): Uint8Array => Uint8Array.from({ length: n }, () => seed++ & 0xff);

describe('fleet inputs', () => {
  it('generates a valid fixture: N devices of a 4-channel product, a token each, and an admin token', () => {
    const fixture = generateFleetFixture({ devices: 25, random: counting });
    validateFixture(JSON.parse(JSON.stringify(fixture)));
    assert.equal(fixture.devices.length, 25);
    assert.equal(fixture.products[0]!.uid, fleetProductUid);
    assert.deepEqual(
      fixture.products[0]!.channels.map((c) => c['key']),
      ['temperature', 'humidity', 'door', 'relay'],
    );
    const deviceTokens = fixture.tokens.filter((t) => t.role === 'device');
    assert.equal(new Set(deviceTokens.map((t) => t.token)).size, 25, 'tokens are distinct');
    assert.equal(new Set(fixture.devices.map((d) => d.uid)).size, 25, 'uids are distinct');
    assert.equal(fixture.tokens.filter((t) => t.role === 'admin').length, 1);
    assert.equal(fixture.devices[24]!.key, fleetDeviceKey(24));
    assert.throws(() => generateFleetFixture({ devices: 0 }));
    assert.throws(() => generateFleetFixture({ devices: 1.5 }));
  });

  it('reads the devices and their tokens back from a generated fixture, by product', () => {
    const fixture = generateFleetFixture({ devices: 3, random: counting });
    const text = JSON.stringify(fixture);
    const roster = parseRoster(text, 'f.json');
    assert.deepEqual(
      roster.members.map((m) => m.key),
      ['fleet-00001', 'fleet-00002', 'fleet-00003'],
    );
    const tokenOf = new Map(fixture.tokens.flatMap((t) => (t.role === 'device' ? [[t.device, t.token]] : [])));
    assert.equal(roster.members[1]!.token, tokenOf.get(fixture.devices[1]!.uid));
    assert.equal(parseRoster(text, 'f.json', fleetProductUid).members.length, 3);
    assert.throws(() => parseRoster(text, 'f.json', 'no-such-product'), 'config.invalid');
  });

  it('skips fixture devices without a device token of their own', () => {
    const fixture = generateFleetFixture({ devices: 3, random: counting });
    fixture.tokens = fixture.tokens.filter((t) => t.role !== 'device' || t.device !== fixture.devices[0]!.uid);
    const roster = parseRoster(JSON.stringify(fixture), 'f.json');
    assert.equal(roster.members.length, 2);
    assert.equal(roster.skipped, 1);
  });

  it('reads a CSV of key,token with a header and comments; refuses bad lines and repeats', () => {
    const roster = parseRoster('key,token\n# a comment\n\ndev-1, t1\r\ndev-2,t2\n', 'd.csv');
    assert.deepEqual(roster.members, [
      { key: 'dev-1', token: 't1' },
      { key: 'dev-2', token: 't2' },
    ]);
    assert.throws(() => parseRoster('dev-1\n', 'd.csv'), 'config.invalid');
    assert.throws(() => parseRoster('dev-1,a,b\n', 'd.csv'), 'config.invalid');
    assert.throws(() => parseRoster('dev-1,\n', 'd.csv'), 'config.invalid');
    assert.throws(() => parseRoster('dev-1,a\ndev-1,b\n', 'd.csv'), 'config.invalid');
    assert.throws(() => parseRoster('dev-1,a\n', 'd.csv', fleetProductUid), 'config.invalid');
    assert.throws(() => parseRoster('{ not json', 'f.json'), 'config.invalid');
  });

  it('parses scenarios in JSON and YAML, sorted by time, and names a bad event', () => {
    const s = parseFleetScenario(
      'events:\n  - { at: 90, kind: broadcast, channel: relay, value: true }\n  - { at: 30, kind: outage, seconds: 30 }\n' +
        '  - { at: 10, kind: churn, devices: 5, downSeconds: 2 }\n',
      true,
    );
    assert.deepEqual(
      s.events.map((e) => e.kind),
      ['churn', 'outage', 'broadcast'],
    );
    assert.deepEqual(parseFleetScenario('{}', false), { events: [] });
    const bad = [
      '{"events": {}}',
      '{"events": [{"at": 1, "kind": "meteor"}]}',
      '{"events": [{"at": -1, "kind": "outage", "seconds": 3}]}',
      '{"events": [{"at": 1, "kind": "outage"}]}',
      '{"events": [{"at": 1, "kind": "broadcast", "channel": "a.desired", "value": 1}]}',
      '{"events": [{"at": 1, "kind": "broadcast", "channel": "relay", "value": null}]}',
      '{"events": [{"at": 1, "kind": "churn", "devices": 2.5, "downSeconds": 1}]}',
      '[1]',
      'nope',
    ];
    for (const text of bad) assert.throws(() => parseFleetScenario(text, false), 'config.invalid', text);
  });

  it('refuses a run that is not positive and an event outside the run', () => {
    const base = {
      service: 'http://127.0.0.1:1',
      members: [{ key: 'dev-1', token: 't' }],
      clock: new FakeClock(),
      http: new FakeHttp(),
      sockets: { connect: () => assert.fail('no socket expected') },
    };
    assert.throws(() => new Fleet({ ...base, durationS: 0, scenario: { events: [] } }), 'config.invalid');
    const late = parseFleetScenario('{"events": [{"at": 10, "kind": "outage", "seconds": 1}]}', false);
    assert.throws(() => new Fleet({ ...base, durationS: 10, scenario: late }), 'config.invalid');
    assert.equal(new Fleet({ ...base, durationS: 11, scenario: late }).devices.length, 1);
  });

  it('bounds the reconnect storm after an outage by the full-jitter windows it has reached', () => {
    // 30 s: windows 1+2+4+8 = 15 s are spent, the next is 16 s: 2 x N / 16.
    assert.equal(stormBoundPerS(1000, 30), 125);
    assert.equal(stormBoundPerS(1000, 31), 63); // 1+2+4+8+16 = 31: the 32 s window
    assert.equal(stormBoundPerS(1000, 0.5), 2000); // not even the first window spent
    assert.equal(stormBoundPerS(1000, 600), 34); // capped at the 60 s window
  });

  it('latency quantiles are never below the true value and at most 19 % above it', () => {
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: 1, max: 1e6, noNaN: true }), { minLength: 1, maxLength: 300 }),
        fc.double({ min: 0.01, max: 1, noNaN: true }),
        (values, q) => {
          const h = new LatencyHistogram();
          for (const v of values) h.add(v);
          const sorted = [...values].sort((a, b) => a - b);
          const truth = sorted[Math.max(1, Math.ceil(q * values.length)) - 1]!;
          const got = h.quantile(q);
          assert.ok(got >= truth * (1 - 1e-9), `q${q}: ${got} below ${truth}`);
          assert.ok(got <= truth * 2 ** 0.25 * (1 + 1e-9), `q${q}: ${got} over 19 % above ${truth}`);
        },
      ),
    );
  });
});
