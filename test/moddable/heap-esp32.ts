/**
 * The Moddable simulator's heap instruments at ESP32 sizes (docs/moddable.md,
 * "Heap on an ESP32"). mcsim is a 64-bit XS: its "Slot used" / "Slot available"
 * are slots x 32 B (sizeof(txSlot), xsDebug.c fxSampleInstrumentation), 16 B on
 * the ESP32's 32-bit XS; "Chunk used" / "Chunk available" are chunk bytes with a
 * 16 B header per chunk (8 B on the ESP32) and pointer-sized content (array
 * element slots, Map tables) twice the ESP32's. The instruments give no chunk
 * count, so the chunk bytes are kept as measured: at ESP32 sizes they are at
 * most that (an upper bound), never more. Node only; no SDK needed.
 */
import { readFileSync } from 'node:fs';

/** One instrument sample as XsbugLog keeps it (names of xsDebug.c). */
export type Sample = Record<string, number>;

export const SLOT_BYTES_SIM = 32;
export const SLOT_BYTES_ESP32 = 16;
/** manifest.json: the creation every platform shares and the ESP32's static block. */
const manifest = JSON.parse(readFileSync(new URL('../../../manifest.json', import.meta.url), 'utf8')) as {
  creation: { stack: number; heap: { initial: number; incremental: number } };
  platforms: { esp32: { creation: { static: number } } };
};

/**
 * The ESP32's `creation.static` (131,072 B): one block (xs/platforms/mc/xsHosts.c) holding the chunk
 * heap (from its bottom), the stack and the slot heap (from its top). The slot heap starts at
 * `creation.heap.initial` slots and never shrinks; when it must grow it takes the chunk heap's free
 * space after a compacting collection. The chunk heap cannot take the slot heap's.
 */
export const ESP32_STATIC_BYTES = manifest.platforms.esp32.creation.static;
/** `creation.stack` slots, taken from the same block. */
export const ESP32_STACK_BYTES = manifest.creation.stack * SLOT_BYTES_ESP32;
/** The slot heap the board starts with, and the step it grows by. */
export const ESP32_SLOT_HEAP_BYTES = manifest.creation.heap.initial * SLOT_BYTES_ESP32;
export const ESP32_SLOT_STEP_BYTES = manifest.creation.heap.incremental * SLOT_BYTES_ESP32;
/** What the SDK asks to be free when a TLS handshake starts (documentation/network/securesocket.md). */
export const HANDSHAKE_ROOM = { chunkBytes: 10 * 1024, slotBytes: 6 * 1024, stackBytes: 4 * 1024 } as const;

/** A heap figure at ESP32 sizes: slots exact, chunks an upper bound. */
export interface Esp32Heap {
  slotBytes: number;
  chunkBytes: number;
  totalBytes: number;
}

function esp32(slotBytesSim: number, chunkBytesSim: number): Esp32Heap {
  const slotBytes = (slotBytesSim / SLOT_BYTES_SIM) * SLOT_BYTES_ESP32;
  return { slotBytes, chunkBytes: chunkBytesSim, totalBytes: slotBytes + chunkBytesSim };
}

function field(sample: Sample, name: string): number {
  const value = sample[name];
  if (typeof value !== 'number' || !Number.isFinite(value)) throw new Error(`heap: sample without "${name}"`);
  return value;
}

/** In use when sampled (live plus garbage not yet collected), at ESP32 sizes. */
export function usedEsp32(sample: Sample): Esp32Heap {
  return esp32(field(sample, 'Slot used'), field(sample, 'Chunk used'));
}

/**
 * What the machine had reserved when sampled, at ESP32 sizes: XS grows its
 * heaps only after collections leave less than an increment free twice in a row
 * (xsMemory.c), so with small increments this is the peak live heap plus at
 * most two increments: what a fixed heap must hold.
 */
export function reservedEsp32(sample: Sample): Esp32Heap {
  return esp32(field(sample, 'Slot available'), field(sample, 'Chunk available'));
}

/** A run's heap at ESP32 sizes from its samples (at least one). */
export interface HeapSummary {
  samples: number;
  /** Lowest in-use sample (the floor: what stays, with the least garbage seen). */
  floor: Esp32Heap;
  /** Highest in-use sample. */
  peakUsed: Esp32Heap;
  /** Reserved at the end (the heaps never shrink): the peak live heap plus at most two increments. */
  reserved: Esp32Heap;
  collections: number;
}

export function summarize(samples: readonly Sample[]): HeapSummary {
  if (samples.length === 0) throw new Error('heap: no instrument samples');
  const used = samples.map(usedEsp32);
  const lowest = used.reduce((a, b) => (b.totalBytes < a.totalBytes ? b : a));
  const highest = used.reduce((a, b) => (b.totalBytes > a.totalBytes ? b : a));
  const last = samples[samples.length - 1]!;
  return {
    samples: samples.length,
    floor: lowest,
    peakUsed: highest,
    reserved: reservedEsp32(last),
    // The instrument counts the collections since the sample before (modInstrumentation resets it).
    collections: samples.reduce((n, s) => n + field(s, 'Garbage collections'), 0),
  };
}

/** What the block leaves for slots and chunks: `creation.static` less the stack. */
export const ESP32_HEAP_BYTES = ESP32_STATIC_BYTES - ESP32_STACK_BYTES;

/** Heaps fixed at ESP32 sizes: the slot heap gets `slotBytes` / 16 slots, the chunk heap `chunkBytes`. */
export interface FixedHeaps {
  slotBytes: number;
  chunkBytes: number;
}

/**
 * The simulator's chunk heap beside the board's when gdb counts chunks at ESP32 sizes (chunk-watch.ts):
 * 64-bit chunks are larger (16 B headers; slots and pointers twice the size), so the simulator gets room
 * enough to run on while the watch holds the need at ESP32 sizes to the board's own chunk bytes.
 */
export const SIM_CHUNK_EXTRA_BYTES = 16 * 1024;

/** The simulator's heaps for the board's `layout` with chunks counted at ESP32 sizes. */
export const watchedLayout = (layout: FixedHeaps): FixedHeaps => ({
  slotBytes: layout.slotBytes,
  chunkBytes: layout.chunkBytes + SIM_CHUNK_EXTRA_BYTES,
});

/**
 * The board's layout of its static block for a firmware whose slots reached `slotBytes` (a run's
 * reserved slots): the slot heap at its initial size, or grown in its steps to hold them (it never
 * shrinks), and every byte the stack leaves to chunks.
 */
export function boardLayout(slotBytes: number): FixedHeaps {
  const grown = Math.ceil(slotBytes / ESP32_SLOT_STEP_BYTES) * ESP32_SLOT_STEP_BYTES;
  const slots = Math.max(ESP32_SLOT_HEAP_BYTES, grown);
  return { slotBytes: slots, chunkBytes: ESP32_HEAP_BYTES - slots };
}

/**
 * Whether `need` (slots and chunks) fits the ESP32's static block beside the stack, with what is spare,
 * and whether `floor` leaves the SDK's handshake room above it.
 */
export function fits(need: Esp32Heap, floor: Esp32Heap): { fits: boolean; spareBytes: number; handshakeRoom: boolean } {
  const spareBytes = ESP32_HEAP_BYTES - need.totalBytes;
  const room = HANDSHAKE_ROOM.chunkBytes + HANDSHAKE_ROOM.slotBytes;
  return { fits: spareBytes >= 0, spareBytes, handshakeRoom: ESP32_HEAP_BYTES - floor.totalBytes >= room };
}

/**
 * The fixed part (what does not grow with the channel count) and the cost per
 * channel, from the floors of two runs of `few` and `many` channels.
 */
export function perChannel(
  few: { channels: number; floor: Esp32Heap },
  many: { channels: number; floor: Esp32Heap },
): { fixedBytes: number; perChannelBytes: number } {
  if (!(many.channels > few.channels)) throw new Error('heap: need two different channel counts');
  const perChannelBytes = (many.floor.totalBytes - few.floor.totalBytes) / (many.channels - few.channels);
  return { fixedBytes: few.floor.totalBytes - few.channels * perChannelBytes, perChannelBytes };
}

/** What was free when a handshake started, on the board's heaps at ESP32 sizes, and whether the SDK's room was. */
export interface HandshakeRoom {
  chunkBytes: number;
  slotBytes: number;
  stackBytes: number;
  room: boolean;
}

/**
 * The room at each handshake's start (chunk-watch.ts `handshakes`: live after a collection forced there)
 * on heaps of `layout`: chunks less the live ones at ESP32 sizes (live bytes less 8 B per chunk and less
 * half of the chunks of slots and pointers: a lower bound of the room), slots at 16 B, the stack's free
 * slots at 16 B. Throws for a start not measured.
 */
export function handshakeRooms(
  starts: ReadonlyArray<Partial<Record<'chunks' | 'simLive' | 'halved' | 'liveSlots' | 'stackFreeSlots', number>>>,
  layout: { slotBytes: number; chunkBytes: number },
): HandshakeRoom[] {
  return starts.map((s, i) => {
    const { chunks, simLive, halved, liveSlots, stackFreeSlots } = s;
    if ([chunks, simLive, halved, liveSlots, stackFreeSlots].includes(undefined))
      throw new Error(`heap: handshake ${i + 1}: no collection at its start (not measured)`);
    const chunkBytes = layout.chunkBytes - (simLive! - 8 * chunks! - halved!);
    const slotBytes = layout.slotBytes - liveSlots! * SLOT_BYTES_ESP32;
    const stackBytes = stackFreeSlots! * SLOT_BYTES_ESP32;
    const room =
      chunkBytes >= HANDSHAKE_ROOM.chunkBytes &&
      slotBytes >= HANDSHAKE_ROOM.slotBytes &&
      stackBytes >= HANDSHAKE_ROOM.stackBytes;
    return { chunkBytes, slotBytes, stackBytes, room };
  });
}
