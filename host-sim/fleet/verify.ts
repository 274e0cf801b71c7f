/**
 * Reads back what reached the service: for each device, every `.reported`
 * state in the run's time range (`states/read`, with the device's own token),
 * counted once per (channel, timestamp), with repeats counted as duplicates.
 * A range the service refuses as too large (400) is read in halves; a 429 or
 * 503 is asked again after its `Retry-After` (decisions 10), a few times.
 */
import { AgentError, retryAfterMs } from '../../src/errors.js';
import type { HttpTransport } from '../../src/ports.js';
import { Paths } from '../../src/wire.js';
import type { FleetMember } from './roster.js';

export interface ReadBack {
  key: string;
  /** Distinct (channel, timestamp) records stored. */
  stored: number;
  /** Records stored more than once (same channel and timestamp). */
  duplicates: number;
  /** Why the read failed, if it did. */
  error?: string;
}

const maxSplits = 8;
/** Reads answered 429 or 503 asked again at most this often per range. */
const maxBusyRetries = 5;

/** Waits `ms` on the fleet's clock. */
export type Wait = (ms: number) => Promise<void>;

async function readRange(
  http: HttpTransport,
  service: string,
  member: FleetMember,
  fromS: number,
  toS: number,
  depth: number,
  wait: Wait,
): Promise<unknown[]> {
  const query = `device=${encodeURIComponent(member.key)}&channels=*.reported&timeRangeStart=${fromS}&timeRangeStop=${toS}`;
  const request = {
    method: 'GET' as const,
    url: `${service}${Paths.statesRead}?${query}`,
    headers: { authorization: `Bearer ${member.token}` },
  };
  let response = await http.request(request);
  for (let retry = 0; retry < maxBusyRetries; retry++) {
    const waitMs = retryAfterMs(response.status, response.headers);
    if (waitMs === undefined) break;
    await wait(waitMs);
    response = await http.request(request);
  }
  if (response.status === 400 && depth < maxSplits && toS - fromS > 1) {
    const mid = (fromS + toS) / 2;
    const first = await readRange(http, service, member, fromS, mid, depth + 1, wait);
    return first.concat(await readRange(http, service, member, mid, toS, depth + 1, wait));
  }
  if (response.status !== 200) {
    throw new AgentError('http.status', `states/read answered ${response.status}: ${response.body.slice(0, 200)}`, {
      status: response.status,
    });
  }
  const body: unknown = JSON.parse(response.body);
  if (!Array.isArray(body)) throw new AgentError('wire.invalid', 'states/read: expected an array');
  return body;
}

/** Counts the records of one device stored between `fromMs` and `toMs` (Unix ms). */
export async function readBack(
  http: HttpTransport,
  service: string,
  member: FleetMember,
  fromMs: number,
  toMs: number,
  wait: Wait,
): Promise<ReadBack> {
  try {
    const records = await readRange(http, service, member, fromMs / 1000, toMs / 1000, 0, wait);
    const seen = new Set<string>();
    let duplicates = 0;
    for (const r of records) {
      const o = r as { channel?: unknown; timestamp?: unknown } | null;
      const id = `${String(o?.channel)}@${String(o?.timestamp)}`;
      if (seen.has(id)) duplicates++;
      else seen.add(id);
    }
    return { key: member.key, stored: seen.size, duplicates };
  } catch (e) {
    return { key: member.key, stored: 0, duplicates: 0, error: e instanceof Error ? e.message : String(e) };
  }
}

/** Reads back every member, `concurrency` at a time. */
export async function readBackAll(
  http: HttpTransport,
  service: string,
  members: readonly FleetMember[],
  fromMs: number,
  toMs: number,
  wait: Wait,
  concurrency = 8,
): Promise<ReadBack[]> {
  const results: ReadBack[] = new Array<ReadBack>(members.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < members.length) {
      const i = next++;
      results[i] = await readBack(http, service, members[i]!, fromMs, toMs, wait);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, members.length) }, worker));
  return results;
}
