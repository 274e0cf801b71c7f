import { Errno } from '../../../src/errno.js';
import { crc16 } from '../../../src/modbus/rtu-line.js';
import { ModbusMaster, type ModbusResult } from '../../../src/modbus/master.js';
import { FakeClock } from '../../fakes/fake-clock.js';
import { FakeLogger } from '../../fakes/fake-logger.js';
import { FakeSerial, type FakeSerialPort } from '../../fakes/fake-serial.js';
import { assert } from '../../support/assert.js';

function withCrc(...b: number[]): Uint8Array {
  const c = crc16(Uint8Array.from(b));
  return Uint8Array.from([...b, c & 0xff, c >>> 8]);
}

describe('modbus/master: transactions on the Clock', () => {
  let clock: FakeClock;
  let port: FakeSerialPort;
  let master: ModbusMaster;
  const charMs = 10 / 9.6;
  const silentMs = 3.5 * charMs;

  beforeEach(() => {
    clock = new FakeClock();
    const serial = new FakeSerial();
    port = serial.open({ port: 1, baudRate: 9600 }, { onData: (b) => master.onData(b) });
    master = new ModbusMaster(port, clock, new FakeLogger(), {
      characterMs: charMs,
      silentIntervalMs: silentMs,
      responseTimeoutMs: 100,
      retries: 2,
      queueLimit: 2,
    });
  });

  function track(p: Promise<ModbusResult>): { result: ModbusResult | undefined } {
    const box: { result: ModbusResult | undefined } = { result: undefined };
    void p.then((r) => (box.result = r));
    return box;
  }

  it('reads, accepting a response delivered one byte at a time', async () => {
    const r = track(master.request({ unit: 1, functionCode: 3, address: 0, count: 2 }));
    await clock.advanceAsync(0);
    assert.equal(port.written.length, 1);
    for (const b of withCrc(1, 3, 4, 0x41, 0x48, 0, 0)) port.deliver([b]);
    await clock.advanceAsync(0);
    assert.deepEqual(r.result, { ok: true, data: Uint8Array.of(0x41, 0x48, 0, 0) });
  });

  it('keeps 3.5 characters of silence after the last byte before the next request', async () => {
    const a = track(master.request({ unit: 1, functionCode: 6, address: 0, count: 1, data: Uint8Array.of(0, 1) }));
    const b = master.request({ unit: 1, functionCode: 3, address: 0, count: 1 });
    await clock.advanceAsync(20);
    port.deliver(withCrc(1, 6, 0, 0, 0, 1));
    await clock.advanceAsync(silentMs - 0.1);
    assert.ok(a.result?.ok === true);
    assert.equal(port.written.length, 1, 'not before the silent interval');
    await clock.advanceAsync(0.2);
    assert.equal(port.written.length, 2);
    port.deliver(withCrc(1, 3, 2, 0, 1));
    assert.equal((await b).ok, true);
  });

  it('retries an unanswered request, then reports an absent device with -ENODEV', async () => {
    const r = track(master.request({ unit: 9, functionCode: 4, address: 0, count: 1 }));
    await clock.advanceAsync(8 * charMs + 100 - 1);
    assert.equal(port.written.length, 1);
    await clock.advanceAsync(1000);
    assert.equal(port.written.length, 3, 'first attempt and two retries');
    assert.deepEqual(r.result, { ok: false, errno: Errno.ENODEV, reason: 'unit 9: no answer' });
    assert.equal(master.counters.timeouts, 3);
    // Absent: one attempt only for the next request.
    const again = track(master.request({ unit: 9, functionCode: 4, address: 0, count: 1 }));
    await clock.advanceAsync(1000);
    assert.equal(port.written.length, 4);
    assert.equal(again.result?.ok, false);
  });

  it('retries after a bad CRC and succeeds; garbled answers in every attempt are -EIO', async () => {
    const r = track(master.request({ unit: 1, functionCode: 1, address: 0, count: 1 }));
    await clock.advanceAsync(0);
    const bad = withCrc(1, 1, 1, 1);
    bad[4] = (bad[4] ?? 0) ^ 1;
    port.deliver(bad);
    await clock.advanceAsync(10);
    assert.equal(port.written.length, 2);
    port.deliver(withCrc(1, 1, 1, 1));
    await clock.advanceAsync(0);
    assert.deepEqual(r.result, { ok: true, data: Uint8Array.of(1) });
    const g = track(master.request({ unit: 1, functionCode: 1, address: 0, count: 1 }));
    for (let i = 0; i < 3; i++) {
      await clock.advanceAsync(10);
      port.deliver(bad);
    }
    await clock.advanceAsync(10);
    assert.equal(g.result?.ok === false ? g.result.errno : 0, Errno.EIO);
  });

  it('maps exception responses and does not retry them', async () => {
    const r = track(master.request({ unit: 1, functionCode: 16, address: 0, count: 1, data: Uint8Array.of(0, 0) }));
    await clock.advanceAsync(0);
    port.deliver(withCrc(1, 0x90, 2));
    await clock.advanceAsync(0);
    assert.deepEqual(r.result, { ok: false, errno: Errno.EINVAL, reason: 'exception 2' });
    assert.equal(port.written.length, 1);
  });

  it('bounds its queue and counts what it refuses; counts stray bytes', async () => {
    void master.request({ unit: 1, functionCode: 3, address: 0, count: 1 });
    await clock.advanceAsync(0);
    void master.request({ unit: 1, functionCode: 3, address: 0, count: 1 });
    void master.request({ unit: 1, functionCode: 3, address: 0, count: 1 });
    const refused = await master.request({ unit: 1, functionCode: 3, address: 0, count: 1 });
    assert.deepEqual(refused, { ok: false, errno: Errno.EIO, reason: 'request queue full' });
    assert.equal(master.counters.overflows, 1);
    master.close();
    port.deliver([1, 2, 3]);
    assert.equal(master.counters.strayBytes, 3);
  });
});
