/** Simulated pins, signals, CSV recordings, scenarios and the simulated device. */
import assert from 'node:assert/strict';
import { parseChannelList } from '../../src/config/parse.js';
import { CustomChannels } from '../../src/custom/provider.js';
import { SimulatedDevice } from '../../host-sim/device/device.js';
import { parseScenario } from '../../host-sim/device/scenario.js';
import { createSignal, parseCsvSamples } from '../../host-sim/pins/signals.js';
import { SimPins } from '../../host-sim/pins/sim-pins.js';
import { FakeClock } from '../fakes/fake-clock.js';
import { FakeLogger } from '../fakes/fake-logger.js';
import { readFileSync } from 'node:fs';
import { demoFixture } from '../e2e/support/harness.js';

const noFile = (): string => '';

describe('simulator: signals', () => {
  it('toggles on a period or a pattern', () => {
    const t = createSignal({ kind: 'toggle', periodMs: 1000 }, noFile);
    assert.deepEqual([0, 999, 1000, 1999, 2000].map(t), [false, false, true, true, false]);
    const p = createSignal({ kind: 'toggle', pattern: [300, 100], initial: true }, noFile);
    assert.deepEqual([0, 299, 300, 399, 400].map(p), [true, true, false, false, true]);
  });

  it('ramps, sines, stays constant and makes repeatable noise', () => {
    assert.deepEqual(
      [0, 500, 999, 1000].map(createSignal({ kind: 'ramp', from: 0, to: 10, periodMs: 1000 }, noFile)),
      [0, 5, 9.99, 0],
    );
    const sine = createSignal({ kind: 'sine', mean: 20, amplitude: 2, periodMs: 4000 }, noFile);
    assert.equal(sine(0), 20);
    assert.equal(sine(1000), 22);
    assert.equal(createSignal({ kind: 'constant', value: 7 }, noFile)(123), 7);
    const a = createSignal({ kind: 'noise', mean: 5, amplitude: 1, seed: 3 }, noFile);
    const b = createSignal({ kind: 'noise', mean: 5, amplitude: 1, seed: 3 }, noFile);
    const xs = [0, 1, 2, 3].map(a);
    assert.deepEqual(xs, [0, 1, 2, 3].map(b));
    assert.ok(xs.every((x) => typeof x === 'number' && x >= 4 && x <= 6));
    assert.equal(new Set(xs).size, 4);
  });

  it('replays a recorded CSV, step-held and looping', () => {
    const csv = 'timeMs,value\n# warm-up\n0,1\n100,2\n250,3\n';
    assert.deepEqual(parseCsvSamples(csv), [
      { timeMs: 0, value: 1 },
      { timeMs: 100, value: 2 },
      { timeMs: 250, value: 3 },
    ]);
    const s = createSignal({ kind: 'csv', file: 'r.csv' }, () => csv);
    assert.deepEqual([0, 99, 100, 260, 400, 450, 520].map(s), [1, 1, 2, 3, 1, 1, 2]);
    assert.throws(() => parseCsvSamples('0,1\n5,x'), /csv line 2/);
    assert.throws(() => parseCsvSamples('5,1\n0,1'), /backwards/);
  });
});

describe('simulator: pins', () => {
  it('reads inputs from their sources in raw counts, clamped to the ADC range', () => {
    const clock = new FakeClock();
    const pins = new SimPins(clock);
    pins.setSource(1, (now) => now / 10);
    pins.setSource(2, () => 99999);
    const a = pins.analogInput({ pin: 1 });
    clock.advance(1234);
    assert.equal(a.read(), 123);
    assert.equal(pins.analogInput({ pin: 2 }).read(), 4095);
    assert.equal(pins.digitalInput({ pin: 9 }).read(), false);
  });

  it('records output writes and tells listeners', () => {
    const pins = new SimPins(new FakeClock(), { maxHistory: 2 });
    const heard: unknown[] = [];
    pins.onWrite((w) => heard.push([w.pin, w.value]));
    const relay = pins.digitalOutput({ pin: 5 });
    const pwm = pins.pwmOutput({ pin: 18 });
    relay.write(true);
    pwm.write(512);
    pwm.write(100);
    assert.equal(relay.read(), true);
    assert.equal(pwm.read(), 100);
    assert.equal(pwm.resolution, 10);
    assert.deepEqual(heard, [
      [5, true],
      [18, 512],
      [18, 100],
    ]);
    assert.equal(pins.history.length, 2, 'history is bounded');
  });
});

describe('simulator: device', () => {
  const config = parseChannelList(
    (JSON.parse(readFileSync(demoFixture, 'utf8')) as { products: Array<{ buses: unknown; channels: unknown }> })
      .products[0],
  );

  it('gives every input channel of the product a signal, the scenario overriding defaults', () => {
    const clock = new FakeClock();
    const pins = new SimPins(clock);
    const logger = new FakeLogger();
    const custom = new CustomChannels(logger);
    const scenario = parseScenario(
      '{"channels":{"temperature":{"kind":"constant","value":21.5},"ghost":{"kind":"constant","value":1}}}',
    );
    const device = new SimulatedDevice({ clock, pins, custom, logger, scenario });
    device.configure(config);
    assert.deepEqual(Object.fromEntries(device.assigned), {
      temperature: 'constant',
      battery: 'sine',
      door: 'toggle',
      uptime: 'ramp',
    });
    assert.equal(pins.analogInput({ pin: 34 }).read(), 615, '21.5 °C = (21.5 + 40) / 0.1 counts');
    assert.equal(logger.find('warn', 'scenario names a channel').length, 1);
    const uptime = custom.create(config.channels.find((c) => c.key === 'uptime')!);
    clock.advance(10000);
    assert.deepEqual(uptime.sample(), { ok: true, value: 10 }, 'uptime ramps 1 per second');
    device.close();
    assert.equal(clock.pending, 0);
  });

  it('refuses a malformed scenario with the entry named', () => {
    assert.throws(
      () => parseScenario('{"channels":{"door":{"kind":"blink"}}}'),
      /scenario: door: "kind" must be one of/,
    );
    assert.throws(
      () => parseScenario('{"channels":{"t":{"kind":"sine","mean":1,"amplitude":1}}}'),
      /"periodMs" must be a number/,
    );
    assert.throws(() => parseScenario('not json'), /not JSON/);
    assert.deepEqual(parseScenario('channels:\n  door: { kind: toggle, periodMs: 100 }\n', true), {
      channels: { door: { kind: 'toggle', periodMs: 100 } },
    });
  });
});
