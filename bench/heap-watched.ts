/**
 * Runs 3 and 4 of bench:heap (heap-sim.ts): the firmware on the ESP32's layout with chunks at ESP32 sizes (gdb
 * attached to mcsim counts the live chunks, chunk-watch.ts), and either every connection dropped halfway
 * (`drop`: both reconnect at the steady heap and the configuration is read again, unchanged) or the service
 * restarted on its port halfway with every channel's configuration changed (`change`: the firmware reconnects
 * and parses and applies it beside the channels in use). Prints the chunks' need and its room, and what was
 * free when each handshake started; or ABORTED, with what the watch saw until then. Answers the figures for
 * the last line.
 */
import { hasGdb, type ChunkWatch } from '../test/moddable/chunk-watch.js';
import { handshakeRooms, watchedLayout, type FixedHeaps } from '../test/moddable/heap-esp32.js';
import { heapRun } from '../test/moddable/heap-run.js';

const what = {
  drop: 'every connection dropped halfway',
  change: 'the service restarted halfway with every channel changed',
} as const;

/** What the chunk heap held at the largest need: the built-in that asked, and bytes by kind (64-bit sizes). */
function atPeak(watch: ChunkWatch): string {
  const peak = watch.atPeak;
  if (!peak) return 'no peak seen';
  const kinds = Object.entries(peak.byKind ?? {})
    .sort((a, b) => b[1] - a[1])
    .slice(0, 5)
    .map(([kind, bytes]) => `${kind} ${bytes}`)
    .join(', ');
  return (
    `at the peak: a chunk of ${peak.request} B asked in ${peak.where?.join(' < ') || 'the VM'}, ${peak.liveSlots} live ` +
    `slots; chunks by kind (64-bit B): ${kinds} (CODE: byte code of functions made at run time)`
  );
}

export async function watchedRun(
  dir: string,
  n: number,
  windowMs: number,
  board: FixedHeaps,
  kind: keyof typeof what,
): Promise<unknown> {
  const label = `${n} channels on the ESP32's layout, chunks at ESP32 sizes, ${what[kind]}`;
  if (!hasGdb()) {
    console.log(`${label}: skipped (gdb is not on PATH)`);
    return { skipped: 'gdb is not on PATH' };
  }
  try {
    const opts = { fixed: watchedLayout(board), watchChunks: true, [kind]: true };
    const { chunks } = await heapRun(dir, n, windowMs, opts);
    const room = board.chunkBytes - chunks!.maxEsp32Need;
    const starts = handshakeRooms(chunks!.handshakes, board);
    console.log(
      `${label}: need at most ${chunks!.maxEsp32Need} B of ${board.chunkBytes} B ` +
        `(${room >= 0 ? `room left ${room} B` : `OVER by ${-room} B`}; ${chunks!.collections} compacting collections, ` +
        `at most ${chunks!.maxChunks} live chunks, ${chunks!.maxSimLive} B live at 64-bit sizes)`,
    );
    console.log(`  ${atPeak(chunks!)}`);
    starts.forEach((r, i) =>
      console.log(
        `  handshake ${i + 1} starts with chunks ${r.chunkBytes} B, slots ${r.slotBytes} B, stack ${r.stackBytes} B free: ` +
          `${r.room ? '' : 'NOT '}the SDK's room (10 KB, 6 KB, 4 KB; ${(r.chunkBytes / 10240).toFixed(2)}x its chunks)`,
      ),
    );
    return { ...chunks, roomBytes: room, handshakeRooms: starts };
  } catch (e) {
    const seen = (e as { chunks?: ChunkWatch }).chunks;
    const lines = (e as Error).message.split('\n');
    const why = lines.find((l) => /allocation/.test(l)) ?? lines[0];
    console.log(
      `${label}: ABORTED (${why})` +
        (seen
          ? `; until then chunks needed at most ${seen.maxEsp32Need} B of ${board.chunkBytes} B, handshake starts ` +
            handshakeRooms(seen.handshakes, board)
              .map((r) => `${r.chunkBytes}/${r.slotBytes}/${r.stackBytes} B free (chunks/slots/stack)`)
              .join(', ') +
            `; ${atPeak(seen)}` +
            (seen.abort
              ? `; the abort in ${seen.abort.where.join(' < ') || 'the VM'}, ${seen.abort.liveSlots} live slots`
              : '')
          : ''),
    );
    return { aborted: why, ...seen };
  }
}
