/**
 * The flash workload of bench/xs.mjs: bench:field's store-writes scenario (bench/field/flash.ts),
 * unchanged, on the engine it runs on. 8 channels report one state each per second; the core's
 * Batcher closes a batch every second into the core's Outbox (its RAM-first ring over the store port),
 * and the store port is a CountingStore that counts the bytes of keys and values set, the sets, the
 * deletes and the distinct keys. Online, each batch is delivered as it closes; offline, a delivery
 * attempt fails every 30 s and the queue is drained once the service is back. The peer in the same
 * run is bench/field/flash.ts's write-through outbox (one store entry per batch).
 *
 * bench/xs.mjs runs this bundle on XS (xsnap) and bench:field's own module on Node: the same core code,
 * so every figure must agree. It installs `globalThis.__flash`.
 */
import { flashRun, type FlashFigures } from '../field/flash.js';

/** bench:field's runs (bench/field.ts): name, mode, seconds of reporting. */
export const FLASH_RUNS = [
  ['online', 'online', 600],
  ['offline10min', 'offline', 600],
  ['offline40min', 'offline', 2400],
] as const;

export interface FlashRow {
  name: string;
  mode: 'online' | 'offline';
  seconds: number;
  ring: FlashFigures;
  writeThrough: FlashFigures;
}

export const flash = {
  /** Every run of FLASH_RUNS, ring outbox and write-through peer. */
  runs(): FlashRow[] {
    return FLASH_RUNS.map(([name, mode, seconds]) => ({
      name,
      mode,
      seconds,
      ring: flashRun('ring', mode, seconds),
      writeThrough: flashRun('write-through', mode, seconds),
    }));
  },
};

(globalThis as { __flash?: typeof flash }).__flash = flash;
