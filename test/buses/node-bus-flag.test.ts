import assert from 'node:assert/strict';
import type { Sample } from '../../src/agent/driver.js';
import { isAgentError } from '../../src/errors.js';
import { Errno } from '../../src/errno.js';
import { busProviders, parseBusFlags } from '../../targets/node/buses.js';
import { parseDeviceOptions } from '../../host-sim/hardware/agent.js';
import { simulatorPlug } from '../../host-sim/hardware/plug.js';
import { CustomChannels } from '../../src/custom/provider.js';
import { FakeClock } from '../fakes/fake-clock.js';
import { FakeLogger } from '../fakes/fake-logger.js';
import { demoConfig } from './support.js';

const base = ['--service', 'http://127.0.0.1:1', '--device', 'd', '--token', 't'];

describe('Node target: --bus <key>=<target>', () => {
  it('collects repeated --bus flags and validates them', () => {
    const o = parseDeviceOptions([...base, '--bus', 'rs485=/dev/ttyUSB0', '--bus=can0=j1939-sim']);
    assert.deepEqual(o.values['bus'], ['rs485=/dev/ttyUSB0', 'can0=j1939-sim']);
    assert.deepEqual(
      [...parseBusFlags(o.values['bus'] ?? [], { claims: () => true })],
      [
        ['rs485', '/dev/ttyUSB0'],
        ['can0', 'j1939-sim'],
      ],
    );
    // Simulated targets need the simulator plugged in; the target alone names the command that has them.
    assert.throws(() => parseBusFlags(['rs485=sim']), /--bus rs485: "sim" is simulated hardware; `npm run device`/);
    for (const bad of [['rs485'], ['=x'], ['rs485='], ['a=1', 'a=2']]) {
      assert.throws(
        () => parseBusFlags(bad),
        (e: unknown) => isAgentError(e, 'config.invalid'),
      );
    }
  });

  it('reads the simulated slave (sim) and the simulated J1939 engine (j1939-sim) through the simulator plug', async () => {
    const clock = new FakeClock();
    const logger = new FakeLogger();
    const bus = ['rs485=sim', 'can0=j1939-sim'];
    const options = parseDeviceOptions([...base, ...bus.flatMap((b) => ['--bus', b])]);
    const hardware = simulatorPlug()({ options, clock, logger, custom: new CustomChannels(logger) });
    const providers = busProviders(bus, clock, logger, hardware);
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

  it('reports -ENODEV for buses without --bus, -EIO for CAN on the target alone, and names unknown bus keys', () => {
    const clock = new FakeClock();
    const logger = new FakeLogger();
    const providers = busProviders(['can0=vcan0', 'rs458=/dev/ttyUSB0'], clock, logger);
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
    assert.equal(logger.find('error', 'no SocketCAN adapter').length, 1);
    assert.equal(logger.find('warn', '--bus rs458: the channel list has no bus "rs458"').length, 1);
    const unwired = busProviders([], clock, logger);
    for (const p of unwired) p.configure?.(config);
    const speed = config.channels.find((x) => x.key === 'engineSpeed');
    assert.ok(speed);
    const can = unwired.find((p) => p.types.includes(speed.type));
    assert.deepEqual(can?.create(speed).sample(), { ok: false, errno: Errno.ENODEV });
  });
});
