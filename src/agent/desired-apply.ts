/**
 * The apply path of desired values (docs/agent.md; decisions.md section 5): ignore a
 * record not newer than the last one applied to that channel; write it through the
 * channel's slot (which refuses, type-checks and inverse-scales: ChannelSlot.write);
 * echo `<key>.reported` with the value read back, or the error. Never rejects. A
 * location sub-channel (`gps.lat`) answers -EROFS on its own state. Also validates
 * the answer of `states/read/last?channels=*.desired` (spec 4.6, 2.6) for the resync
 * after every hub (re)connect: names arrive as `<product_uid>:<key>.desired`;
 * records without a value or with a bad shape are skipped and counted.
 *
 * Clock faults (decisions 8): a record dated beyond the device's time plus
 * `toleranceMs` is applied (it is the latest wish), but the channel's "newer
 * than" watermark moves only to the device's time, so one bad timestamp cannot
 * block later records; the faulty record itself is remembered so that a resync
 * returning it (read/last orders by time) does not apply it again. Each such
 * record is logged when applied. While the device's time is unknown, timestamps
 * are taken as they are.
 */
import { asArray, isObject } from '../config/fields.js';
import { Errno } from '../errno.js';
import { toAgentError } from '../errors.js';
import type { Clock, Logger } from '../ports.js';
import type { Reporter } from '../report/reporter.js';
import type { WallTime } from '../time/wall-time.js';
import { LocationFields, StateSide } from '../wire.js';
import type { ChannelSlot } from './channel-slot.js';
import type { AgentCounters } from './counters.js';
import type { DesiredRecord } from './desired.js';
import { errorSample, type Sample, type Value } from './driver.js';

/** What the applier works with: the agent's parts and its tolerance for clock faults, ms. */
export interface DesiredContext {
  readonly reporter: Reporter;
  readonly clock: Clock;
  readonly wallTime: WallTime;
  readonly logger: Logger;
  readonly counters: AgentCounters;
  readonly toleranceMs: number;
  /** Told of every applied desired value and its echo (the agent's display hooks). */
  readonly onEcho: (key: string, value: Value, echo: Sample) => void;
}

export class DesiredApplier {
  /** Per channel: the ordering watermark (never ahead of the device's time + tolerance). */
  readonly #lastAppliedMs = new Map<string, number>();
  /** Per channel: the timestamp of the last far-future record applied (not applied twice). */
  readonly #faultyMs = new Map<string, number>();
  readonly #c: DesiredContext;

  constructor(context: DesiredContext) {
    this.#c = context;
  }

  async apply(record: DesiredRecord, slot: ChannelSlot | undefined): Promise<void> {
    const { key, value, timestampMs } = record;
    const c = this.#c;
    const field = slot === undefined ? undefined : key.slice(slot.key.length + 1); // '' for the channel itself
    // Only configured channels and location fields: keeps the watermarks bounded whatever the hub sends.
    if (
      field === undefined ||
      (field !== '' && !(slot!.isLocation && (LocationFields as readonly string[]).includes(field)))
    ) {
      c.counters.desiredIgnored++;
      c.logger.log('warn', 'desired: no such channel', { key });
      return;
    }
    const last = this.#lastAppliedMs.get(key);
    if ((last !== undefined && timestampMs <= last) || this.#faultyMs.get(key) === timestampMs) {
      c.counters.desiredIgnored++;
      return;
    }
    const nowMs = c.wallTime.nowMs();
    let watermarkMs = timestampMs;
    if (nowMs !== undefined && timestampMs > nowMs + c.toleranceMs) {
      this.#faultyMs.set(key, timestampMs);
      watermarkMs = nowMs;
      c.logger.log('warn', 'desired: dated ahead of the device clock', { key, timestampMs, nowMs });
    }
    this.#lastAppliedMs.set(key, watermarkMs);
    let result: Sample;
    try {
      result = field !== '' ? errorSample(Errno.EROFS) : await slot!.write(value);
    } catch (e) {
      result = errorSample(toAgentError(e).errno ?? Errno.EIO);
    }
    c.counters.desiredApplied++;
    if (!result.ok) c.logger.log('warn', 'desired: not applied', { key, errno: result.errno });
    const now = c.clock.monotonicMs();
    if (field !== '') {
      c.reporter.state(key + StateSide.reported, false, undefined, Errno.EROFS, now, true);
    } else {
      result = slot!.scale(result);
      slot!.remember(result, now);
      c.reporter.channel(key, slot!.isLocation, result, now, true);
    }
    c.onEcho(key, value, result);
  }
}

/** The `.desired` records of a `states/read/last` answer, oldest first, and how many were skipped. */
export function parseDesiredRecords(body: unknown): { records: DesiredRecord[]; skipped: number } {
  const records: DesiredRecord[] = [];
  let skipped = 0;
  for (const raw of asArray(body, 'states/read/last')) {
    const { channel, value, timestamp } = isObject(raw) ? raw : {};
    const key =
      typeof channel === 'string' && channel.endsWith(StateSide.desired)
        ? channel.slice(channel.indexOf(':') + 1, -StateSide.desired.length)
        : '';
    if (key === '' || !(typeof value === 'boolean' || typeof value === 'string' || typeof value === 'number'))
      skipped++;
    else if (typeof timestamp !== 'number' || !Number.isFinite(timestamp)) skipped++;
    else records.push({ key, value, timestampMs: Math.round(timestamp * 1000) });
  }
  records.sort((a, b) => a.timestampMs - b.timestampMs);
  return { records, skipped };
}
