/**
 * Through a real pseudo-terminal pair made by socat: the Modbus provider on the
 * Node serial adapter (targets/node/serial.ts, over `serialport`) reads the
 * simulated slave on the other end, and writes a desired value to it. Skips,
 * saying why, when socat is absent (`.ci/run` installs it).
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import type { Sample } from '../../src/agent/driver.js';
import { ModbusProvider } from '../../src/modbus/provider.js';
import type { Clock, TimerHandle } from '../../src/ports.js';
import { startSerialSlave, type SerialSlave } from '../../host-sim/modbus/serial-slave.js';
import { NodeSerial } from '../../targets/node/serial.js';
import { FakeLogger } from '../fakes/fake-logger.js';
import { demoConfig, demoRegisterMap } from './demo-config.js';

/** Real time, for real devices. */
const realClock: Clock = {
  monotonicMs: () => performance.now(),
  wallMs: () => Date.now(),
  setTimer: (cb, ms): TimerHandle => setTimeout(cb, ms) as unknown as TimerHandle,
  clearTimer: (h) => clearTimeout(h as unknown as NodeJS.Timeout),
};

/** Starts socat and resolves with the two pty paths it reports. */
function ptyPair(): Promise<{ socat: ChildProcess; a: string; b: string }> {
  return new Promise((resolve, reject) => {
    const socat = spawn('socat', ['-d', '-d', 'pty,raw,echo=0', 'pty,raw,echo=0'], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    const paths: string[] = [];
    let text = '';
    socat.stderr?.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      for (const m of text.matchAll(/PTY is (\S+)/g)) if (m[1] !== undefined && !paths.includes(m[1])) paths.push(m[1]);
      if (/starting data transfer loop/.test(text) && paths.length === 2)
        resolve({ socat, a: paths[0] ?? '', b: paths[1] ?? '' });
    });
    socat.once('error', reject);
    socat.once('exit', (code) => reject(new Error(`socat exited (${String(code)}): ${text}`)));
  });
}

describe('modbus through a real pty pair (socat)', function () {
  this.timeout(15000);
  let socat: ChildProcess | undefined;
  let slave: SerialSlave | undefined;
  let provider: ModbusProvider | undefined;

  before(function () {
    if (spawnSync('socat', ['-V']).error !== undefined) {
      console.log('    socat is not installed: skipping the pty test (apt-get install socat, or run .ci/run)');
      this.skip();
    }
  });

  afterEach(() => {
    provider?.close();
    slave?.close();
    socat?.kill();
  });

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
});
