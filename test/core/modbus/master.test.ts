import { Errno } from '../../../src/errno.js';
import { crc16 } from '../../../src/modbus/rtu.js';
import { ModbusMaster, QUEUE_LIMIT, RESPONSE_TIMEOUT_MS, type ModbusResult } from '../../../src/modbus/master.js';
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
  const line = { baudRate: 9600, dataBits: 8, parity: 'none', stopBits: 'one' } as const;

  beforeEach(() => {
    clock = new FakeClock();
    const serial = new FakeSerial();
    port = serial.open({ port: 1, baudRate: 9600 }, { onData: (b) => master.onData(b) });
    master = new ModbusMaster(port, clock, new FakeLogger(), line);
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
    assert.deepEqual(r.result, { ok: true, data: Uint8Array.of(0x41, 0x48, 0, 0), address: 0 });
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
    await clock.advanceAsync(8 * charMs + RESPONSE_TIMEOUT_MS - 1);
    assert.equal(port.written.length, 1);
    await clock.advanceAsync(1000);
    assert.equal(port.written.length, 3, 'first attempt and two retries');
    assert.deepEqual(r.result, { ok: false, errno: Errno.ENODEV, reason: 'unit 9: no answer' });
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
    assert.deepEqual(r.result, { ok: true, data: Uint8Array.of(1), address: 0 });
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

  it('bounds its queue, ignores bytes while no request waits, and ends every request on close', async () => {
    const first = track(master.request({ unit: 1, functionCode: 3, address: 0, count: 1 }));
    await clock.advanceAsync(0);
    const waiting = track(master.request({ unit: 1, functionCode: 4, address: 0, count: 1 }));
    for (let unit = 2; unit <= QUEUE_LIMIT; unit++)
      void master.request({ unit, functionCode: 4, address: 0, count: 1 });
    const refused = await master.request({ unit: 99, functionCode: 3, address: 0, count: 1 });
    assert.deepEqual(refused, { ok: false, errno: Errno.EIO, reason: 'queue full' });
    const joined = track(master.request({ unit: 1, functionCode: 4, address: 1, count: 1 }));
    await clock.advanceAsync(0);
    assert.equal(joined.result, undefined, 'a read that joins a waiting one needs no place in the queue');
    port.deliver(withCrc(1, 3, 2, 0, 7));
    await clock.advanceAsync(0);
    assert.deepEqual(first.result, { ok: true, data: Uint8Array.of(0, 7), address: 0 });
    port.deliver(withCrc(1, 3, 2, 0, 8));
    await clock.advanceAsync(0);
    assert.equal(port.written.length, 1, 'stray bytes start nothing');
    master.close();
    await clock.advanceAsync(0);
    assert.deepEqual(waiting.result, { ok: false, errno: Errno.EIO, reason: 'bus closed' });
    assert.deepEqual(joined.result, waiting.result);
    port.deliver([1, 2, 3]);
    assert.equal((await master.request({ unit: 1, functionCode: 3, address: 0, count: 1 })).ok, false);
  });

  it('joins reads of one unit and function that touch or overlap, never across a gap', async () => {
    const read = (unit: number, functionCode: 1 | 3 | 4, address: number, count: number) =>
      track(master.request({ unit, functionCode, address, count }));
    const a = read(1, 3, 0, 2);
    const b = read(1, 3, 4, 2);
    const c = read(1, 3, 2, 2); // touches both: one read of 0..5
    const d = read(1, 3, 20, 1); // a gap: its own read
    const e = read(1, 4, 0, 1); // another function
    const f = read(2, 3, 0, 1); // another unit
    const g = read(1, 1, 0, 1);
    const h = read(1, 1, 1, 1); // coils 0 and 1
    const frames: number[][] = [];
    const answer = (bytes: number[]) => port.deliver(withCrc(...bytes));
    for (let i = 0; i < 6; i++) {
      await clock.advanceAsync(50);
      const sent = port.written[i] ?? new Uint8Array(0);
      frames.push(Array.from(sent.subarray(0, 6)));
      const [unit = 0, fc = 0, , , , count = 0] = sent;
      if (fc <= 2) answer([unit, fc, 1, 0b10]);
      else answer([unit, fc, count * 2, ...Array.from({ length: count * 2 }, (_, k) => k)]);
    }
    await clock.advanceAsync(50);
    assert.deepEqual(frames, [
      [1, 3, 0, 0, 0, 6],
      [1, 3, 0, 20, 0, 1],
      [1, 4, 0, 0, 0, 1],
      [2, 3, 0, 0, 0, 1],
      [1, 1, 0, 0, 0, 2],
      [],
    ]);
    const window = Uint8Array.from({ length: 12 }, (_, k) => k);
    for (const r of [a, b, c]) assert.deepEqual(r.result, { ok: true, data: window, address: 0 });
    assert.deepEqual(d.result, { ok: true, data: Uint8Array.of(0, 1), address: 20 });
    assert.equal(e.result?.ok && f.result?.ok, true);
    assert.deepEqual(g.result, h.result);
    assert.deepEqual(h.result, { ok: true, data: Uint8Array.of(0b10), address: 0 });
  });

  it('joins reads only up to the function code quantity limit', async () => {
    for (let i = 0; i < 130; i++) void master.request({ unit: 1, functionCode: 3, address: i, count: 1 });
    await clock.advanceAsync(0);
    assert.deepEqual(Array.from(port.written[0]?.subarray(0, 6) ?? []), [1, 3, 0, 0, 0, 125]);
    master.close();
  });
});
