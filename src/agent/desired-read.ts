/**
 * Validates the answer of `states/read/last?channels=*.desired` (spec 4.6,
 * 2.6) into DesiredRecords for the resync after every hub (re)connect
 * (decisions 5). Channel names arrive as `<product_uid>:<key>.desired`;
 * records without a value (errors cannot be desired) or with a bad shape are
 * skipped and counted.
 */
import { asArray, isObject } from '../config/fields.js';
import { StateSide } from '../wire.js';
import type { DesiredRecord } from './desired.js';

/** The channel key of a state channel name: strips `<product>:` and `.desired`. */
export function desiredKey(channel: string): string | undefined {
  if (!channel.endsWith(StateSide.desired)) return undefined;
  const colon = channel.indexOf(':');
  const key = channel.slice(colon + 1, channel.length - StateSide.desired.length);
  return key === '' ? undefined : key;
}

export function parseDesiredRecords(body: unknown): { records: DesiredRecord[]; skipped: number } {
  const records: DesiredRecord[] = [];
  let skipped = 0;
  for (const raw of asArray(body, 'states/read/last response')) {
    const channel = isObject(raw) ? raw['channel'] : undefined;
    const value = isObject(raw) ? raw['value'] : undefined;
    const timestamp = isObject(raw) ? raw['timestamp'] : undefined;
    const key = typeof channel === 'string' ? desiredKey(channel) : undefined;
    const valueOk = typeof value === 'boolean' || typeof value === 'string' || typeof value === 'number';
    if (key === undefined || !valueOk || typeof timestamp !== 'number' || !Number.isFinite(timestamp)) {
      skipped++;
      continue;
    }
    records.push({ key, value, timestampMs: Math.round(timestamp * 1000) });
  }
  records.sort((a, b) => a.timestampMs - b.timestampMs);
  return { records, skipped };
}
