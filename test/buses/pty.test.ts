/**
 * Through a real pseudo-terminal pair made by socat: the Modbus provider on the
 * Node serial adapter (targets/node/serial.ts, over `serialport`) reads the
 * simulated slave on the other end, and writes a desired value to it. Skips,
 * saying why, when socat is absent (`.ci/run` installs it).
 */
import assert from 'node:assert/strict';
import { spawnSync, type ChildProcess } from 'node:child_process';
import type { Sample } from '../../src/agent/driver.js';
import { ModbusProvider } from '../../src/modbus/provider.js';
import { startSerialSlave, type SerialSlave } from '../../host-sim/modbus/serial-slave.js';
import { NodeClock } from '../../targets/node/clock.js';
import { NodeSerial } from '../../targets/node/serial.js';
import type { NodeAgentRuntime } from '../../targets/node/runtime.js';
import { FakeLogger } from '../fakes/fake-logger.js';
import { useE2eHarness } from '../e2e/support/harness.js';
import { demoConfig, demoRegisterMap, ptyPair } from './support.js';

/** Real time, for real devices. */
const realClock = new NodeClock();

describe('modbus through a real pty pair (socat)', function () {
  this.timeout(15000);
  let socat: ChildProcess | undefined;
  let slave: SerialSlave | undefined;
  let provider: ModbusProvider | undefined;
  let runtime: NodeAgentRuntime | undefined;

  before(function () {
    if (spawnSync('socat', ['-V']).error !== undefined) {
      console.log('    socat is not installed: skipping the pty test (apt-get install socat, or run .ci/run)');
      this.skip();
    }
  });

  afterEach(async () => {
    runtime?.stop();
    provider?.close();
    slave?.close();
    socat?.kill();
  });
  // Registered after the hook above, so the agent stops before the harness closes the service.
  const h = useE2eHarness();

  it('the Node serial adapter reads the simulated slave and writes a holding register', async () => {
    const pair = await ptyPair();
    socat = pair.socat;
    const serial = new NodeSerial();
    slave = startSerialSlave(serial, realClock, pair.b, demoRegisterMap(), { baudRate: 19200, parity: 'even' });
    const logger = new FakeLogger();
    provider = new ModbusProvider({ serial, clock: realClock, logger, ports: { rs485: { port: pair.a } } });
    const config = demoConfig();
    provider.configure(config);
    const drivers = new Map(
      config.channels.filter((c) => c.type === 'modbus').map((c) => [c.key, provider!.create(c)]),
    );
    const samples = await Promise.all(
      ['flow', 'total', 'pump', 'setpoint', 'pressure'].map(
        async (k) => [k, { ...(await drivers.get(k)!.sample()!) }] as const,
      ),
    );
    assert.deepEqual(Object.fromEntries(samples), {
      flow: { ok: true, value: 12.5 },
      total: { ok: true, value: 123456.75 },
      pump: { ok: true, value: true },
      setpoint: { ok: true, value: 50 },
      pressure: { ok: true, value: 253 },
    } satisfies Record<string, Sample>);
    assert.deepEqual(await drivers.get('setpoint')!.applyDesired!(4321), { ok: true, value: 4321 });
    assert.equal(slave.endpoint.slave.device(1).holdingRegisters.get(20), 4321);
    logger.assertNoErrors();
  });

  it("the Node agent (npm run agent -- --bus rs485=<pty>) reports the slave's registers, scaled", async () => {
    const pair = await ptyPair();
    socat = pair.socat;
    slave = startSerialSlave(new NodeSerial(), realClock, pair.b, demoRegisterMap(), {
      baudRate: 19200,
      parity: 'even',
    });
    const service = await h.startService();
    const wanted = new Set(['flow', 'total', 'pump', 'setpoint', 'pressure']);
    const seen = new Map<string, unknown>();
    let done: () => void = () => undefined;
    const allSeen = new Promise<void>((resolve) => (done = resolve));
    runtime = await h.startAgent(service.url, undefined, {
      args: ['--bus', `rs485=${pair.a}`],
      hub: true,
      agent: {
        onReport: (key, sample) => {
          if (!wanted.has(key)) return;
          seen.set(key, sample.ok ? sample.value : sample.errno);
          if (seen.size === wanted.size) done();
        },
      },
    });
    await allSeen;
    assert.deepEqual(Object.fromEntries(seen), {
      flow: 12.5,
      total: 123456.75,
      pump: true,
      setpoint: 50,
      pressure: 2.53,
    });
  });
});
