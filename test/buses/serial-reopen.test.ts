/**
 * An unplugged serial device, with a real pty pair (socat) that is closed and
 * recreated under the same names: the Modbus bus on the Node serial adapter,
 * wrapped in the core's ReopeningSerial, reports -ETIMEDOUT / -ENODEV while the
 * pty is gone and its values again once it is back, by itself. Skips, saying
 * why, when socat is absent (`apt-get install socat`).
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ChannelDriver, Sample } from '../../src/agent/driver.js';
import { ModbusProvider } from '../../src/modbus/provider.js';
import { ReopeningSerial } from '../../src/serial/reopening-serial.js';
import { startSerialSlave, type SerialSlave } from '../../host-sim/modbus/serial-slave.js';
import { NodeClock } from '../../targets/node/clock.js';
import { NodeSerial } from '../../targets/node/serial.js';
import { FakeLogger } from '../fakes/fake-logger.js';
import { demoConfig, demoRegisterMap } from './support.js';

const realClock = new NodeClock();

/** socat linking two ptys to `<dir>/a` and `<dir>/b`; resolves once both links exist. */
function ptyLinks(dir: string): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const socat = spawn(
      'socat',
      ['-d', '-d', `pty,raw,echo=0,link=${join(dir, 'a')}`, `pty,raw,echo=0,link=${join(dir, 'b')}`],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    let text = '';
    socat.stderr?.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      if (/starting data transfer loop/.test(text)) resolve(socat);
    });
    socat.once('error', reject);
    socat.once('exit', (code) => reject(new Error(`socat exited (${String(code)}): ${text}`)));
  });
}

function stop(socat: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (socat.exitCode !== null || socat.signalCode !== null) return resolve();
    socat.once('exit', () => resolve());
    socat.kill('SIGTERM');
  });
}

/** Samples `driver` every 50 ms (real time: a real device) until `accept` takes one; the samples seen. */
async function sampleUntil(driver: ChannelDriver, accept: (s: Sample) => boolean, limitMs = 8000): Promise<Sample[]> {
  const seen: Sample[] = [];
  const end = Date.now() + limitMs;
  while (Date.now() < end) {
    const s = { ...(await driver.sample()!) } as Sample;
    seen.push(s);
    if (accept(s)) return seen;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`no accepted sample in ${limitMs} ms: ${JSON.stringify(seen.slice(-5))}`);
}

describe('serial reopen through a pty that is closed and recreated (socat)', function () {
  this.timeout(30000);
  let dir: string;
  let socat: ChildProcess | undefined;
  let slave: SerialSlave | undefined;
  let provider: ModbusProvider | undefined;

  before(function () {
    if (spawnSync('socat', ['-V']).error !== undefined) {
      console.log('    socat is not installed: skipping the serial reopen test (apt-get install socat)');
      this.skip();
    }
  });
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'dds-reopen-'));
  });
  afterEach(async () => {
    provider?.close();
    slave?.close();
    if (socat !== undefined) await stop(socat);
    rmSync(dir, { recursive: true, force: true });
  });

  it('a Modbus bus reports -ETIMEDOUT/-ENODEV while the pty is gone, and its value again once it is back', async () => {
    socat = await ptyLinks(dir);
    const line = { baudRate: 19200, parity: 'even' } as const;
    slave = startSerialSlave(new NodeSerial(), realClock, join(dir, 'b'), demoRegisterMap(), line);
    const logger = new FakeLogger();
    const retry = { nextDelayMs: (): number => 100 };
    const serial = new ReopeningSerial(new NodeSerial(), realClock, logger, { retry });
    provider = new ModbusProvider({ serial, clock: realClock, logger, ports: { rs485: { port: join(dir, 'a') } } });
    const config = demoConfig();
    provider.configure(config);
    const flowChannel = config.channels.find((c) => c.key === 'flow');
    assert.ok(flowChannel !== undefined);
    const flow = provider.create(flowChannel);
    const ok = (s: Sample): boolean => s.ok && s.value === 12.5;
    await sampleUntil(flow, ok);

    slave.close();
    await stop(socat); // the "USB adapter" is unplugged: both ptys vanish
    assert.equal(existsSync(join(dir, 'a')), false);
    const meanwhile = await sampleUntil(flow, (s) => !s.ok && s.errno === -19);
    assert.ok(
      meanwhile.every((s) => !s.ok && [-110, -19].includes(s.errno)),
      JSON.stringify(meanwhile),
    );
    assert.equal(logger.find('warn', 'port failed; reopening').length, 1);

    socat = await ptyLinks(dir); // plugged in again, same names
    slave = startSerialSlave(new NodeSerial(), realClock, join(dir, 'b'), demoRegisterMap(), line);
    await sampleUntil(flow, ok);
    assert.equal(logger.find('info', 'port back').length, 1);
    logger.assertNoErrors();
  });
});
