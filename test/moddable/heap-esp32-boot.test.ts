/**
 * The firmware on the ESP32's heap rule (docs/moddable.md, "Heap on an ESP32"):
 * in mcsim, heaps fixed at the board's layout of manifest.json's
 * `creation.static` (the stack and the slot heap's initial size taken from the
 * block, every byte left to chunks, chunks at their 64-bit size: stricter than
 * the board), so XS aborts ("memory full") where a board would run out. The
 * firmware must boot with no cached configuration, open both TLS sessions (the
 * service TLS-only without resumption: the kept-alive HTTP connection's full
 * handshake, then the hub's wss full handshake beside its open session) and run
 * 20 s, with 8 channels. 8 and 32 channels on the same layout with chunks at
 * ESP32 sizes through the boot (bench:heap also drops every connection once):
 * the simulator's chunk heap gets 16 KB more and gdb
 * (chunk-watch.ts) holds the chunk heap's need at ESP32 sizes, after every
 * compacting collection, to the board's chunk bytes, and what is free when
 * each handshake starts (a collection forced as its socket connects) to the
 * SDK's 10 KB of chunks, 6 KB of slots and 4 KB of stack: a start without them
 * fails the test. Skips without MODDABLE, mcsim, xvfb-run or openssl (the
 * watched runs: gdb). Two runs per count (heaps growing, for the slots the
 * firmware reaches; then fixed), a few minutes.
 */
import { strict as assert } from 'node:assert';
import { hasGdb } from './chunk-watch.js';
import { boardLayout, ESP32_STACK_BYTES, HANDSHAKE_ROOM, handshakeRooms, watchedLayout } from './heap-esp32.js';
import { heapRun, heapSkipReason } from './heap-run.js';
import { suiteScratch } from './suite-scratch.js';

const skip = heapSkipReason();

describe('firmware heap on the ESP32 rule (mcsim, fixed heaps)', function () {
  this.timeout(900_000);
  const dir = suiteScratch('dds-heap-esp32-', skip);

  const channels = 8;
  it(`${channels} channels boot and run with both TLS sessions open on the board's layout, no abort`, async () => {
    // The slots the firmware reaches (heaps growing), then the same firmware on the board's layout for them.
    const grown = await heapRun(dir(), channels, 10_000);
    const layout = boardLayout(grown.reserved.slotBytes);
    const run = await heapRun(dir(), channels, 20_000, { fixed: layout });
    console.log(
      `      ${channels} channels: slots ${layout.slotBytes} B + chunks ${layout.chunkBytes} B + stack ` +
        `${ESP32_STACK_BYTES} B: ${run.handshakes.full} full handshakes, no abort`,
    );
    assert.ok(run.handshakes.full >= 2, 'both sessions opened with full handshakes');
    assert.ok(run.samples > 0, 'the firmware was sampled through the window');
  });

  // Through the boot (both sessions' handshakes). bench:heap also drops every connection once; not here: mcsim's
  // socket module (lin) can crash when a socket closed in its own callback is collected before the callback
  // returns (socketDownUseCount on a freed socket; the ESP32's lwIP module clears its host data at close), which
  // a drop on these small fixed heaps sometimes provokes. And after a drop 32 channels do not fit (docs/moddable.md).
  for (const n of [8, 32]) {
    it(`${n} channels on the board's layout with chunks at ESP32 sizes (gdb): no abort, the SDK's room at each handshake's start`, async function () {
      if (!hasGdb()) {
        console.log('      skipped: gdb is not on PATH (it counts the live chunks)');
        return this.skip();
      }
      const grown = await heapRun(dir(), n, 10_000);
      const layout = boardLayout(grown.reserved.slotBytes);
      const run = await heapRun(dir(), n, 20_000, { fixed: watchedLayout(layout), watchChunks: true });
      const chunks = run.chunks!;
      const rooms = handshakeRooms(chunks.handshakes, layout);
      console.log(
        `      ${n} channels: slots ${layout.slotBytes} B + chunks ${layout.chunkBytes} B at ESP32 sizes: need at most ` +
          `${chunks.maxEsp32Need} B over ${chunks.collections} compacting collections (at most ${chunks.maxChunks} ` +
          `live chunks); free at each handshake's start (chunks/slots/stack B): ` +
          rooms.map((r) => `${r.chunkBytes}/${r.slotBytes}/${r.stackBytes}`).join(', '),
      );
      assert.ok(chunks.collections > 0, 'the watch saw compacting collections');
      // Both sessions' handshakes at boot: each start measured.
      assert.ok(rooms.length >= 2, `${rooms.length} handshake starts seen, expected at least 2`);
      rooms.forEach((r, i) =>
        assert.ok(
          r.room,
          `handshake ${i + 1} started with ${JSON.stringify(r)}, under the SDK's ${JSON.stringify(HANDSHAKE_ROOM)}`,
        ),
      );
      assert.ok(
        chunks.maxEsp32Need <= layout.chunkBytes,
        `the chunk heap needs ${chunks.maxEsp32Need} B at ESP32 sizes, over the board's ${layout.chunkBytes} B`,
      );
    });
  }
});
