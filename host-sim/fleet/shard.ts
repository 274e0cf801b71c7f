/**
 * `--shard I/M`: the I-th (0-based, as a Kubernetes indexed Job's
 * JOB_COMPLETION_INDEX) of M contiguous slices of the device list. The slices
 * cover the list exactly once (no device twice, none missed) and their sizes
 * differ by at most one, so any runner that starts M copies of the fleet with
 * I = 0 .. M-1 spreads one fleet over M machines.
 */
import { AgentError } from '../../src/errors.js';

export interface Shard {
  index: number;
  count: number;
}

/** The whole list: one slice. */
export const wholeFleet: Shard = { index: 0, count: 1 };

/** Parses `I/M` (0 <= I < M, both integers); throws AgentError `config.invalid`. */
export function parseShard(text: string): Shard {
  const match = /^(\d+)\/(\d+)$/.exec(text.trim());
  if (match === null) throw new AgentError('config.invalid', `--shard: expected I/M (e.g. 0/4), got "${text}"`);
  const index = Number(match[1]);
  const count = Number(match[2]);
  if (!(count >= 1) || !(index < count) || !Number.isSafeInteger(count)) {
    throw new AgentError('config.invalid', `--shard: need 0 <= I < M and M >= 1, got "${text}"`);
  }
  return { index, count };
}

/** The bounds [start, end) of slice `shard` of a list of `length` items. */
export function shardBounds(length: number, shard: Shard): { start: number; end: number } {
  // Multiply before dividing: floor(i * n / m) makes contiguous slices that tile 0..n.
  return {
    start: Math.floor((shard.index * length) / shard.count),
    end: Math.floor(((shard.index + 1) * length) / shard.count),
  };
}

/** The items of slice `shard`, in list order. */
export function shardSlice<T>(items: readonly T[], shard: Shard): T[] {
  const { start, end } = shardBounds(items.length, shard);
  return items.slice(start, end);
}
