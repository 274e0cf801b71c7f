/**
 * bench:heap: the firmware's heap at ESP32 sizes with both TLS sessions open
 * (docs/moddable.md, "Heap on an ESP32"), measured in the Moddable simulator
 * (mcsim) for 8 and 32 analog channels (test/moddable/heap-run.ts: the service
 * TLS-only without session resumption, so the hub's wss handshake at boot is a
 * full one beside the kept-alive HTTP connection's open session). Four runs per
 * channel count:
 *
 * 1. heaps growing in small increments: the floor (lowest sample in use over the
 *    steady window) and the reserved heap at the end, which holds every live
 *    byte ever (the boot and both handshakes included): an upper bound of the
 *    peak, within two increments of it;
 * 2. the board's rule: heaps fixed at the ESP32's layout of `creation.static`
 *    (manifest.json): the stack, the slot heap at its initial size (or the
 *    reserved slots, if more) and every byte left to chunks. XS aborts when one
 *    runs out; the run must boot, open both sessions and run the window.
 *
 * 3. (heap-watched.ts) with gdb: the board's layout with chunks at ESP32 sizes (chunk-watch.ts),
 *    every connection dropped halfway (both reconnect at the steady heap): the
 *    simulator's chunk heap 16 KB larger, and after every compacting
 *    collection live chunk bytes at ESP32 sizes (less 8 B per chunk, less half
 *    of the chunks of slots and pointers) plus the chunk asked for held to the
 *    board's chunk bytes: the chunk heap's need and its room left; and when
 *    each handshake starts (a collection forced as its socket connects), the
 *    chunks, slots and stack free, against the SDK's 10 KB, 6 KB and 4 KB;
 * 4. as 3, but the service restarted on its port halfway with every channel's
 *    configuration changed: the firmware parses and applies it beside the
 *    channels in use.
 *
 * Slots are counted at 16 B (exact); chunk bytes as measured (64-bit: an upper
 * bound of the ESP32's) except in runs 3 and 4. The fixed part and the cost per channel come from the
 * two floors. Compared against the same run's floor (the peer): the peak's
 * ratio to the floor is what the boot and a handshake add. Needs MODDABLE
 * (an SDK with its Linux tools built), mcsim, xvfb-run and openssl; says why and
 * prints {"skipped": ...} otherwise. Builds in build/heap-sim/. Last line: one JSON object.
 */
import { join } from 'node:path';
import {
  boardLayout,
  ESP32_HEAP_BYTES,
  ESP32_STACK_BYTES,
  ESP32_STATIC_BYTES,
  fits,
  perChannel,
  type FixedHeaps,
} from '../test/moddable/heap-esp32.js';
import { heapRun, heapSkipReason, type HeapRun } from '../test/moddable/heap-run.js';
import { root } from '../test/moddable/mcsim.js';
import { watchedRun } from './heap-watched.js';

/** HEAP_CHANNELS=8,32 (the default): the channel counts; the fixed part and per channel need two. */
const CHANNELS = (process.env.HEAP_CHANNELS ?? '8,32').split(',').map(Number);
const WINDOW_MS = Number(process.env.HEAP_WINDOW_MS ?? 45_000);
const dir = join(root, 'build', 'heap-sim');
const kb = (bytes: number): string => `${(bytes / 1024).toFixed(1)} KB`;

const why = heapSkipReason();
if (why !== undefined) {
  console.log(`bench:heap: skipped: ${why}`);
  console.log(JSON.stringify({ skipped: why }));
} else {
  const runs: Array<HeapRun & { board: FixedHeaps; boardRun: string; esp32Chunks: unknown; esp32Change: unknown }> = [];
  console.log(
    `ESP32 creation.static ${ESP32_STATIC_BYTES} B = stack ${ESP32_STACK_BYTES} B + slots and chunks ${ESP32_HEAP_BYTES} B`,
  );
  for (const n of CHANNELS) {
    const run = await heapRun(dir, n, WINDOW_MS);
    const { floor, reserved } = run;
    const fit = fits(reserved, floor);
    console.log(
      `${n} channels, ${run.handshakes.full} full TLS handshakes (the hub's beside the open HTTP session), ` +
        `${run.samples} samples in ${WINDOW_MS / 1000} s, ${run.collections} GCs: ` +
        `floor ${kb(floor.totalBytes)} (slots ${kb(floor.slotBytes)}, chunks <= ${kb(floor.chunkBytes)}); ` +
        `peak <= reserved ${kb(reserved.totalBytes)} (slots ${kb(reserved.slotBytes)}, chunks <= ${kb(reserved.chunkBytes)}), ` +
        `${(reserved.totalBytes / floor.totalBytes).toFixed(2)}x the floor; ` +
        `${fit.fits ? `room left ${kb(fit.spareBytes)}` : `OVER by ${kb(-fit.spareBytes)}`} of ${kb(ESP32_HEAP_BYTES)}; ` +
        `handshake room (10 KB chunks + 6 KB slots) above the floor: ${fit.handshakeRoom ? 'yes' : 'no'}`,
    );
    // The board's rule: the same firmware on heaps fixed at the ESP32's layout must not abort.
    const board = boardLayout(reserved.slotBytes);
    let boardRun = 'no abort';
    try {
      await heapRun(dir, n, WINDOW_MS, { fixed: board });
    } catch (e) {
      boardRun = (e as Error).message.split('\n')[0] ?? 'failed';
    }
    console.log(
      `${n} channels on the ESP32's layout (slots ${board.slotBytes} B, chunks ${board.chunkBytes} B, stack ` +
        `${ESP32_STACK_BYTES} B): ${boardRun === 'no abort' ? `booted, both sessions open, ${WINDOW_MS / 1000} s, no abort` : `ABORTED: ${boardRun}`}`,
    );
    // The board's layout with chunks at ESP32 sizes (gdb counts the live chunks): every connection dropped
    // halfway, then the service restarted with every channel changed (heap-watched.ts).
    const esp32Chunks = await watchedRun(dir, n, WINDOW_MS, board, 'drop');
    const esp32Change = await watchedRun(dir, n, WINDOW_MS, board, 'change');
    runs.push({ ...run, board, boardRun, esp32Chunks, esp32Change });
  }
  const split = runs.length > 1 ? perChannel(runs[0]!, runs[runs.length - 1]!) : undefined;
  if (split !== undefined)
    console.log(
      `fixed part (floor less the channels; both TLS sessions open): ${kb(split.fixedBytes)}; ` +
        `per channel ${Math.round(split.perChannelBytes)} B (ESP32 sizes, chunks as upper bounds)`,
    );
  console.log(
    JSON.stringify({
      windowMs: WINDOW_MS,
      esp32StaticBytes: ESP32_STATIC_BYTES,
      esp32StackBytes: ESP32_STACK_BYTES,
      runs: runs.map((r) => ({ ...r, fit: fits(r.reserved, r.floor) })),
      ...(split === undefined
        ? {}
        : { fixedBytes: Math.round(split.fixedBytes), perChannelBytes: Math.round(split.perChannelBytes) }),
    }),
  );
}
