/**
 * Which records of a refused batch (400, 422) belong to channels that are no
 * longer configured (docs/decisions.md): the sender re-reads the configuration,
 * then drops those records (counted in `rejected`, one warn line per channel)
 * and delivers the rest. The service's problem text is not parsed (decisions 6
 * leaves its wording open).
 *
 * A record belongs to a channel that is gone when it is a state (`<key>.reported`,
 * `<key>.<field>.reported`) whose key is not a channel of the configuration just
 * read, or a measurement whose metric was a channel key of an earlier
 * configuration and is not one now (application metrics are not channels, so
 * an unknown metric alone proves nothing).
 */
import type { CoreCounters } from '../agent/counters.js';
import { isObject } from '../reader.js';
import type { Logger } from '../ports.js';
import type { OutboxBatch } from './outbox-options.js';
import { warn } from '../errors.js';

/** The agent's channels, as the split needs them (ChannelSet). */
export interface KnownChannels {
  /** Whether `key` is a channel (running or rejected) of the current configuration. */
  isConfigured(key: string): boolean;
  /** Whether `key` was a channel of an earlier configuration and is not one now. */
  wasConfigured(key: string): boolean;
}

/**
 * The JSON text of each record of `batch` left once those of removed channels
 * are dropped (maybe none), or undefined when none is of a removed channel.
 */
export function splitGone(
  batch: OutboxBatch,
  channels: KnownChannels,
  counters: CoreCounters,
  logger: Logger,
): string[] | undefined {
  const state = batch.lane === 's';
  const kept: string[] = [];
  const gone = new Map<string, number>();
  for (const record of JSON.parse(batch.json) as unknown[]) {
    const name = isObject(record) ? record[state ? 'channel' : 'metric'] : undefined;
    const key = typeof name !== 'string' ? undefined : state ? name.split('.')[0]! : name;
    if (key !== undefined && (state ? !channels.isConfigured(key) : channels.wasConfigured(key))) {
      gone.set(key, (gone.get(key) ?? 0) + 1);
    } else {
      kept.push(JSON.stringify(record));
    }
  }
  if (gone.size === 0) return undefined;
  for (const [key, records] of gone) {
    counters.rejected += records;
    warn(logger, 'sender: channel gone, dropped', { key, records });
  }
  return kept;
}
