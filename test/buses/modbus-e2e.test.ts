import assert from 'node:assert/strict';
import type { ChannelDriver, Sample } from '../../src/agent/driver.js';
import type { ChannelConfig, ModbusChannel } from '../../src/config/model.js';
import { Errno } from '../../src/errno.js';
import { ModbusProvider } from '../../src/modbus/provider.js';
import { SimulatedModbusLink } from '../../host-sim/modbus/link.js';
import { ModbusSlave } from '../../host-sim/modbus/slave.js';
import { FakeClock } from '../fakes/fake-clock.js';
import { FakeLogger } from '../fakes/fake-logger.js';
import { demoConfig, demoRegisterMap } from './support.js';

describe('modbus end to end with the simulated slave (demo fixture)', () => {
  let clock: FakeClock;
  let logger: FakeLogger;
  let link: SimulatedModbusLink;
  let provider: ModbusProvider;
  let drivers: Map<string, ChannelDriver>;
  let config: ChannelConfig;

  beforeEach(() => {
    clock = new FakeClock();
    logger = new FakeLogger();
    link = new SimulatedModbusLink(new ModbusSlave(demoRegisterMap()), clock);
    provider = new ModbusProvider({
      serial: link,
      clock,
      logger,
      ports: { rs485: { port: 'uart2', directionPin: 17 } },
    });
    config = demoConfig();
    provider.configure(config);
    drivers = new Map();
    for (const c of config.channels) if (c.type === 'modbus') drivers.set(c.key, provider.create(c));
  });

  afterEach(() => provider.close());

  async function sampleAll(keys: readonly string[]): Promise<Record<string, Sample>> {
    const pending = keys.map((k) => {
      const s = drivers.get(k)?.sample();
      assert.ok(s instanceof Promise, `${k} answers with a promise`);
      return s.then((x) => [k, { ...x }] as const);
    });
    await clock.advanceAsync(2000);
    return Object.fromEntries(await Promise.all(pending));
  }

  it('opens the bus with the channel list settings and board wiring', () => {
    assert.deepEqual(link.lastOptions, {
      port: 'uart2',
      baudRate: 19200,
      dataBits: 8,
      parity: 'even',
      stopBits: 'one',
      directionPin: 17,
    });
  });

  it('reports every modbus channel (raw: the agent scales) in as few requests as contiguity allows', async () => {
    const got = await sampleAll(['flow', 'total', 'pump', 'setpoint', 'pressure']);
    assert.deepEqual(got, {
      flow: { ok: true, value: 12.5 },
      total: { ok: true, value: 123456.75 },
      pump: { ok: true, value: true },
      setpoint: { ok: true, value: 50 },
      pressure: { ok: true, value: 253 },
    });
    // flow+total (registers 0..5) merge; setpoint (20), coil 0 and unit 2 are separate: 4 requests.
    assert.equal(link.endpoint.counters.requests, 4);
    logger.assertNoErrors();
  });

  it('writes a desired value to a holding register and reads it back', async () => {
    const setpoint = drivers.get('setpoint');
    const answer = setpoint?.applyDesired?.(1234);
    await clock.advanceAsync(1000);
    assert.deepEqual(await answer, { ok: true, value: 1234 });
    assert.equal(link.endpoint.slave.device(1).holdingRegisters.get(20), 1234);
    const pump = drivers.get('pump')?.applyDesired?.(false);
    await clock.advanceAsync(1000);
    assert.deepEqual(await pump, { ok: true, value: false });
    assert.equal(link.endpoint.slave.device(1).coils.get(0), false);
  });

  it('refuses desired values out of range or on read-only channels', async () => {
    const big = drivers.get('setpoint')?.applyDesired?.(70000);
    const ro = drivers.get('pressure')?.applyDesired?.(1);
    await clock.advanceAsync(1000);
    assert.deepEqual(await big, { ok: false, errno: Errno.ERANGE });
    assert.deepEqual(await ro, { ok: false, errno: Errno.EROFS });
  });

  const faults = [
    { fault: { kind: 'noAnswer' as const }, errno: Errno.ENODEV, why: 'a unit that never answered is absent' },
    { fault: { kind: 'exception' as const, code: 2 }, errno: Errno.EINVAL, why: 'illegal data address' },
    { fault: { kind: 'exception' as const, code: 4 }, errno: Errno.EIO, why: 'server device failure' },
    { fault: { kind: 'exception' as const, code: 1 }, errno: Errno.EOPNOTSUPP, why: 'illegal function' },
    { fault: { kind: 'exception' as const, code: 11 }, errno: Errno.ENODEV, why: 'gateway target did not answer' },
    { fault: { kind: 'corruptCrc' as const }, errno: Errno.EIO, why: 'every answer garbled' },
    { fault: { kind: 'slow' as const, delayMs: 5000 }, errno: Errno.ENODEV, why: 'answers after the timeout' },
  ];
  for (const { fault, errno, why } of faults) {
    it(`maps ${fault.kind}${'code' in fault ? ' ' + fault.code : ''} on unit 2 to ${errno} (${why}); unit 1 unaffected`, async () => {
      link.endpoint.faults.add({ unit: 2, ...fault });
      const got = await sampleAll(['flow', 'pressure', 'setpoint']);
      assert.deepEqual(got['pressure'], { ok: false, errno });
      assert.deepEqual(got['flow'], { ok: true, value: 12.5 });
      assert.deepEqual(got['setpoint'], { ok: true, value: 50 });
    });
  }

  it('a present device that stops answering times out, then counts as absent after 3 silent requests', async () => {
    assert.deepEqual((await sampleAll(['pressure']))['pressure'], { ok: true, value: 253 });
    link.endpoint.faults.add({ unit: 2, kind: 'noAnswer' });
    const seen: number[] = [];
    for (let i = 0; i < 4; i++) {
      const s = (await sampleAll(['pressure']))['pressure'];
      assert.ok(s !== undefined && !s.ok);
      seen.push(s.errno);
    }
    assert.deepEqual(seen, [Errno.ETIMEDOUT, Errno.ETIMEDOUT, Errno.ENODEV, Errno.ENODEV]);
    link.endpoint.faults.clear();
    assert.deepEqual((await sampleAll(['pressure']))['pressure'], { ok: true, value: 253 });
  });

  it('reports -ENODEV for channels on a bus the board does not wire', async () => {
    const bare = new ModbusProvider({ serial: link, clock, logger, ports: {} });
    bare.configure(config);
    const flow = config.channels.find((c): c is ModbusChannel => c.key === 'flow' && c.type === 'modbus');
    assert.ok(flow);
    assert.deepEqual(bare.create(flow).sample(), { ok: false, errno: Errno.ENODEV });
    assert.equal(logger.find('warn', 'not wired').length, 1);
  });
});
