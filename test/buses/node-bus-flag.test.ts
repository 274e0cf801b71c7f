import assert from 'node:assert/strict';
import type { Sample } from '../../src/agent/driver.js';
import { isAgentError } from '../../src/errors.js';
import { Errno } from '../../src/errno.js';
import { busProviders, parseBusFlags } from '../../targets/node/buses.js';
import { parseOptions } from '../../targets/node/options.js';
import { FakeClock } from '../fakes/fake-clock.js';
import { FakeLogger } from '../fakes/fake-logger.js';
import { demoConfig } from './support.js';

const base = ['--service', 'http://127.0.0.1:1', '--device', 'd', '--token', 't'];

describe('Node target: --bus <key>=<target>', () => {
  it('collects repeated --bus flags and validates them', () => {
    const o = parseOptions([...base, '--bus', 'rs485=/dev/ttyUSB0', '--bus=can0=j1939-sim'], {}, () => '');
    assert.deepEqual(o.values['bus'], ['rs485=/dev/ttyUSB0', 'can0=j1939-sim']);
    assert.deepEqual(
      [...parseBusFlags(o.values['bus'] ?? [])],
      [
        ['rs485', '/dev/ttyUSB0'],
        ['can0', 'j1939-sim'],
      ],
    );
    for (const bad of [['rs485'], ['=x'], ['rs485='], ['a=1', 'a=2']]) {
      assert.throws(
        () => parseBusFlags(bad),
        (e: unknown) => isAgentError(e, 'config.invalid'),
      );
    }
  });

  it('reads the simulated slave (sim) and the simulated J1939 engine (j1939-sim)', async () => {
    const clock = new FakeClock();
    const logger = new FakeLogger();
    const providers = busProviders(['rs485=sim', 'can0=j1939-sim'], clock, logger);
    const config = demoConfig();
    for (const p of providers) p.configure?.(config);
    const drivers = new Map(
      config.channels.flatMap((c) => {
        const p = providers.find((x) => x.types.includes(c.type));
        return p === undefined ? [] : [[c.key, p.create(c)] as const];
      }),
    );
    const flow = drivers.get('flow')?.sample();
    await clock.advanceAsync(1000);
    assert.deepEqual(await flow, { ok: true, value: 12.5 });
    const rpm = drivers.get('engineSpeed')?.sample() as Sample;
    assert.ok(rpm.ok && typeof rpm.value === 'number' && rpm.value >= 800 / 0.125 && rpm.value <= 1800 / 0.125);
    for (const p of providers) p.close?.();
  });

  it('reports -ENODEV for buses without --bus, and -EIO for an unusable CAN target', () => {
    const clock = new FakeClock();
    const logger = new FakeLogger();
    const providers = busProviders(['can0=vcan0'], clock, logger);
    const config = demoConfig();
    for (const p of providers) p.configure?.(config);
    const create = (key: string) => {
      const c = config.channels.find((x) => x.key === key);
      assert.ok(c);
      return providers
        .find((p) => p.types.includes(c.type))
        ?.create(c)
        .sample();
    };
    assert.deepEqual(create('flow'), { ok: false, errno: Errno.ENODEV });
    assert.deepEqual(create('engineSpeed'), { ok: false, errno: Errno.EIO });
    assert.equal(logger.find('error', 'j1939-sim or replay').length, 1);
    const unwired = busProviders([], clock, logger);
    for (const p of unwired) p.configure?.(config);
    const speed = config.channels.find((x) => x.key === 'engineSpeed');
    assert.ok(speed);
    assert.deepEqual(unwired[1]?.create(speed).sample(), { ok: false, errno: Errno.ENODEV });
  });
});
