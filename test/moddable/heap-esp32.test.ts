/**
 * The heap bench's arithmetic and its input, without the SDK: mcsim's 64-bit
 * instruments at ESP32 sizes (test/moddable/heap-esp32.ts), and the xsbug
 * endpoint keeping every instrument sample a machine sends (xsbug.ts), over a
 * real TCP connection in the xsbug protocol's own XML.
 */
import { strict as assert } from 'node:assert';
import { connect } from 'node:net';
import {
  ESP32_HEAP_BYTES,
  ESP32_SLOT_HEAP_BYTES,
  ESP32_SLOT_STEP_BYTES,
  ESP32_STACK_BYTES,
  ESP32_STATIC_BYTES,
  boardLayout,
  fits,
  handshakeRooms,
  perChannel,
  reservedEsp32,
  summarize,
  usedEsp32,
  type Sample,
} from './heap-esp32.js';
import { XsbugLog } from './xsbug.js';

const sample = (slotUsed: number, chunkUsed: number, gcs = 0): Sample => ({
  'Chunk used': chunkUsed,
  'Chunk available': 65536,
  'Slot used': slotUsed,
  'Slot available': 4096 * 32,
  'Garbage collections': gcs,
});

describe('heap at ESP32 sizes (mcsim instruments)', () => {
  it('halves slot bytes (32 B slots in mcsim, 16 B on the ESP32) and keeps chunk bytes as the upper bound', () => {
    assert.deepEqual(usedEsp32(sample(3200 * 32, 40_000)), {
      slotBytes: 3200 * 16,
      chunkBytes: 40_000,
      totalBytes: 3200 * 16 + 40_000,
    });
    assert.deepEqual(reservedEsp32(sample(0, 0)), { slotBytes: 4096 * 16, chunkBytes: 65536, totalBytes: 131_072 });
  });

  it('summarizes a run: floor, peak in use, reserved at the end, collections summed over the window', () => {
    const s = summarize([sample(1000 * 32, 20_000, 5), sample(1500 * 32, 30_000, 6), sample(900 * 32, 21_000, 9)]);
    assert.equal(s.samples, 3);
    assert.equal(s.floor.totalBytes, 900 * 16 + 21_000, 'the lowest in total, not the first');
    assert.equal(s.peakUsed.totalBytes, 1500 * 16 + 30_000);
    assert.equal(s.reserved.totalBytes, 131_072);
    assert.equal(s.collections, 20, 'counted per sample interval, summed');
  });

  it('refuses no samples and samples without the heap instruments', () => {
    assert.throws(() => summarize([]), /no instrument samples/);
    assert.throws(() => usedEsp32({ 'Slot used': 32 }), /Chunk used/);
  });

  it('holds a heap against creation.static and the SDK handshake room (10 KB chunks + 6 KB slots)', () => {
    // manifest.json's figures: the block, the stack (640 slots at 16 B) in it, the slot heap's start.
    assert.deepEqual([ESP32_STATIC_BYTES, ESP32_STACK_BYTES, ESP32_SLOT_HEAP_BYTES], [131_072, 10_240, 65_536]);
    assert.equal(ESP32_HEAP_BYTES, ESP32_STATIC_BYTES - 10_240);
    const need = { slotBytes: 60_000, chunkBytes: 60_000, totalBytes: 120_000 };
    assert.deepEqual(fits(need, need), { fits: true, spareBytes: 832, handshakeRoom: false });
    assert.equal(fits({ ...need, totalBytes: 125_000 }, need).fits, false, 'under 131,072 B but not beside the stack');
    const floor = { slotBytes: 50_000, chunkBytes: 50_000, totalBytes: 100_000 };
    assert.equal(fits(need, floor).handshakeRoom, true);
    assert.equal(fits(need, { ...floor, totalBytes: 104_449 }).handshakeRoom, false, '16 KB above the floor, no less');
  });

  it('lays out the board block: the slot heap never below its initial size, grown in steps, chunks the rest', () => {
    for (const slots of [0, ESP32_SLOT_HEAP_BYTES, ESP32_SLOT_HEAP_BYTES + 1, 90_000]) {
      const layout = boardLayout(slots);
      assert.equal(layout.slotBytes + layout.chunkBytes + ESP32_STACK_BYTES, ESP32_STATIC_BYTES);
      assert.ok(layout.slotBytes >= Math.max(slots, ESP32_SLOT_HEAP_BYTES));
    }
    assert.equal(boardLayout(ESP32_SLOT_HEAP_BYTES + 1).slotBytes, ESP32_SLOT_HEAP_BYTES + ESP32_SLOT_STEP_BYTES);
  });

  it("holds each handshake's start to the SDK's room: chunks at ESP32 sizes, slots and stack at 16 B", () => {
    const layout = { slotBytes: 65_536, chunkBytes: 55_296 };
    // 300 chunks, 50,000 B at 64-bit sizes, of which 6,000 B the board saves on arrays and tables: 41,600 B.
    const start = { chunks: 300, simLive: 50_000, halved: 6_000, liveSlots: 3_000, stackFreeSlots: 400 };
    assert.deepEqual(handshakeRooms([start], layout), [
      { chunkBytes: 13_696, slotBytes: 17_536, stackBytes: 6_400, room: true },
    ]);
    const tight = [
      { ...start, simLive: 53_500 },
      { ...start, liveSlots: 3_800 },
      { ...start, stackFreeSlots: 255 },
    ];
    assert.deepEqual(
      handshakeRooms(tight, layout).map((r) => r.room),
      [false, false, false],
      'under 10 KB of chunks, 6 KB of slots or 4 KB of stack, each alone, is no room',
    );
    assert.throws(() => handshakeRooms([start, {}], layout), /handshake 2: no collection at its start/);
  });

  it("xsbug answers the machine's login only once its gate opens (a watcher attaches first)", async () => {
    const log = new XsbugLog();
    let open = (): void => undefined;
    log.loginGate = new Promise((resolve) => (open = resolve));
    const port = await log.listen();
    const socket = connect(port, '127.0.0.1');
    let answer = '';
    socket.on('data', (d: Buffer) => (answer += d.toString()));
    try {
      const heard = new Promise<void>((resolve) => (log.onEvent = resolve));
      socket.write('<xsbug><login name="main" value="XS"/></xsbug>\r\n');
      await heard;
      // A round trip after the login was read: nothing may have been answered yet.
      await new Promise((resolve) => setImmediate(resolve));
      assert.equal(answer, '');
      const answered = new Promise<void>((resolve) => socket.once('data', () => resolve()));
      open();
      await answered;
      assert.match(answer, /<set-all-breakpoints>/);
    } finally {
      socket.destroy();
      await log.close();
    }
  });

  it('splits two floors into a fixed part and a cost per channel', () => {
    const at = (channels: number, totalBytes: number) => ({
      channels,
      floor: { slotBytes: 0, chunkBytes: totalBytes, totalBytes },
    });
    assert.deepEqual(perChannel(at(8, 58_000), at(32, 82_000)), { fixedBytes: 50_000, perChannelBytes: 1000 });
    assert.throws(() => perChannel(at(8, 1), at(8, 2)), /two different channel counts/);
  });

  it('xsbug keeps every instrument sample by name when asked (the protocol as XS sends it)', async () => {
    const log = new XsbugLog();
    log.keepSamples = true;
    const port = await log.listen();
    const socket = connect(port, '127.0.0.1');
    try {
      const got = new Promise<void>((resolve) => {
        log.onEvent = () => {
          if (log.samples.length === 2) resolve();
        };
      });
      socket.write(
        '<xsbug><instruments><instrument name="Timers" value=" timers"/><instrument name="Chunk used" value=" / "/>' +
          '<instrument name="Slot used" value=" / "/></instruments></xsbug>\r\n' +
          '<xsbug><samples>1,100,3200</samples></xsbug>\r\n<xsbug><samples>2,90,6400</samples></xsbug>\r\n',
      );
      await got;
      assert.deepEqual(log.samples, [
        { Timers: 1, 'Chunk used': 100, 'Slot used': 3200 },
        { Timers: 2, 'Chunk used': 90, 'Slot used': 6400 },
      ]);
      assert.equal(log.peaks.get('Slot used'), 6400);
    } finally {
      socket.destroy();
      await log.close();
    }
  });
});
