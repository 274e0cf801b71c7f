/**
 * What the agent does with a batch the service refuses as invalid (400, 422):
 * a refused batch never takes valid records down with it. The service's problem
 * text is not parsed (decisions 6 leaves its wording open); instead the
 * configuration is re-read, and the records of channels that are no longer
 * configured are dropped, counted in `rejected` and logged once per channel
 * (one warn line per channel and refusal, not per record). The rest is
 * delivered. A batch that is still refused after that, with nothing left to
 * drop, is malformed and is dropped whole by the sender. While the
 * configuration cannot be read, nothing is dropped: the batch is retried later.
 *
 * Which records belong to a channel that is gone: a state (`<key>.reported`,
 * `<key>.<field>.reported`) whose key is not a channel of the configuration
 * just read; a measurement whose metric was a channel key of an earlier
 * configuration and is not one now (application metrics are not channels, so
 * an unknown metric alone proves nothing).
 */
import type { AgentCounters } from '../agent/counters.js';
import { isObject } from '../reader.js';
import { toAgentError } from '../errors.js';
import type { Logger } from '../ports.js';
import type { OutboxBatch } from './outbox-options.js';

/** The agent's channels, as the refusal handler needs them (ChannelSet). */
export interface KnownChannels {
  /** Whether `key` is a channel (running or rejected) of the current configuration. */
  isConfigured(key: string): boolean;
  /** Whether `key` was a channel of an earlier configuration and is not one now. */
  wasConfigured(key: string): boolean;
}

export type RefusalOutcome =
  /** Deliver these records instead (count may be 0: nothing left to deliver). */
  | { kind: 'split'; json: string; count: number }
  /** Nothing to drop: the batch is malformed. */
  | { kind: 'malformed' }
  /** The configuration could not be read: keep the batch, retry later. */
  | { kind: 'retry'; reason: string };

/** The channel key a record names: the state channel up to its first dot, or the metric. */
function recordKey(record: unknown, lane: OutboxBatch['lane']): string | undefined {
  if (!isObject(record)) return undefined;
  const name = record[lane === 's' ? 'channel' : 'metric'];
  if (typeof name !== 'string') return undefined;
  const dot = lane === 's' ? name.indexOf('.') : -1;
  return dot < 0 ? name : name.slice(0, dot);
}

export class RefusalHandler {
  constructor(
    /** Re-reads the configuration from the service; rejects when it cannot be read. */
    private readonly refresh: () => Promise<void>,
    private readonly channels: KnownChannels,
    private readonly counters: AgentCounters,
    private readonly logger: Logger,
  ) {}

  /** Decides what becomes of a refused batch. Never rejects. */
  async handle(batch: OutboxBatch): Promise<RefusalOutcome> {
    try {
      await this.refresh();
    } catch (e) {
      return { kind: 'retry', reason: toAgentError(e).message };
    }
    let records: unknown;
    try {
      records = JSON.parse(batch.json) as unknown;
    } catch {
      return { kind: 'malformed' };
    }
    if (!Array.isArray(records)) return { kind: 'malformed' };
    const kept: string[] = [];
    const gone = new Map<string, number>();
    for (const record of records as unknown[]) {
      const key = recordKey(record, batch.lane);
      if (key !== undefined && this.isGone(key, batch.lane)) {
        gone.set(key, (gone.get(key) ?? 0) + 1);
      } else {
        kept.push(JSON.stringify(record));
      }
    }
    if (gone.size === 0) return { kind: 'malformed' };
    for (const [key, count] of gone) {
      this.counters.rejected += count;
      this.logger.log('warn', 'records of a channel no longer configured dropped', { key, records: count });
    }
    return { kind: 'split', json: `[${kept.join(',')}]`, count: kept.length };
  }

  private isGone(key: string, lane: OutboxBatch['lane']): boolean {
    return lane === 's' ? !this.channels.isConfigured(key) : this.channels.wasConfigured(key);
  }
}
