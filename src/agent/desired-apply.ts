/**
 * The apply path of desired values (docs/agent.md; decisions.md section 5): ignore a
 * record not newer than the last one applied to that channel; refuse inputs and
 * read-only channels (-EROFS); check the value's type against the channel
 * (-EINVAL); inverse-scale, round, clamp or refuse (-ERANGE, decisions 2);
 * write through the driver; echo `<key>.reported` with the value read back, or
 * the error. Never rejects. Also validates the answer of
 * `states/read/last?channels=*.desired` (spec 4.6, 2.6) for the resync after
 * every hub (re)connect: names arrive as `<product_uid>:<key>.desired`; records
 * without a value or with a bad shape are skipped and counted.
 *
 * Clock faults (decisions 8): a record dated beyond the device's time plus
 * `toleranceMs` is applied (it is the latest wish), but the channel's "newer
 * than" watermark moves only to the device's time, so one bad timestamp cannot
 * block later records; the faulty record itself is remembered so that a resync
 * returning it (read/last orders by time) does not apply it again. Logged once
 * per channel. While the device's time is unknown, timestamps are taken as they are.
 */
import { asArray, isObject } from '../reader.js';
import { valueToRaw } from '../codec/scale.js';
import { Errno } from '../errno.js';
import { toAgentError } from '../errors.js';
import type { Clock, Logger } from '../ports.js';
import type { Reporter } from '../report/reporter.js';
import type { WallTime } from '../time/wall-time.js';
import { LocationFields, StateSide } from '../wire.js';
import type { ChannelSlot, WriteKind } from './channel-slot.js';
import type { AgentCounters } from './counters.js';
import type { DesiredRecord } from './desired.js';
import { errorSample, type Sample, type Value } from './driver.js';

/** The desired value in the channel's kind, or undefined when it does not fit (-EINVAL). */
function coerce(value: Value, kind: Exclude<WriteKind, 'none'>): boolean | number | undefined {
  if (kind === 'boolean') {
    if (typeof value === 'boolean') return value;
    if (value === 0 || value === 1) return value === 1;
    if (value === 'true' || value === 'false') return value === 'true';
    return undefined;
  }
  const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
  if (!Number.isFinite(n)) return undefined;
  if (kind === 'integer' && !Number.isInteger(n)) return undefined;
  return n;
}

export interface DesiredApplierOptions {
  /** How far ahead of the device's time a record may be dated before it is a clock fault, ms. */
  toleranceMs: number;
}

export class DesiredApplier {
  /** Per channel: the ordering watermark (never ahead of the device's time + tolerance). */
  private readonly lastAppliedMs = new Map<string, number>();
  /** Per channel: the timestamp of the last far-future record applied (not applied twice). */
  private readonly faultyMs = new Map<string, number>();
  private readonly warnedFault = new Set<string>();

  constructor(
    private readonly reporter: Reporter,
    private readonly clock: Clock,
    private readonly wallTime: WallTime,
    private readonly logger: Logger,
    private readonly counters: AgentCounters,
    private readonly options: DesiredApplierOptions,
    /** Told of every applied desired value and its echo (the agent's display hooks). */
    private readonly onEcho: (key: string, value: Value, echo: Sample) => void = () => undefined,
  ) {}

  /** Forgets the last-applied times (not needed on reload: keys keep their meaning). */
  reset(): void {
    this.lastAppliedMs.clear();
    this.faultyMs.clear();
  }

  async apply(record: DesiredRecord, slot: ChannelSlot | undefined): Promise<void> {
    if (slot === undefined) {
      this.counters.desiredIgnored++;
      this.logger.log('warn', 'desired value for a channel this device does not have', { key: record.key });
      return;
    }
    const subChannel = record.key !== slot.key; // location form: gps.lat
    const field = record.key.slice(slot.key.length + 1);
    if (subChannel && (!slot.isLocation || !(LocationFields as readonly string[]).includes(field))) {
      // Keeps lastAppliedMs bounded by the configured channels whatever the hub sends.
      this.counters.desiredIgnored++;
      this.logger.log('warn', 'desired value for a channel this device does not have', { key: record.key });
      return;
    }
    const last = this.lastAppliedMs.get(record.key);
    if ((last !== undefined && record.timestampMs <= last) || this.faultyMs.get(record.key) === record.timestampMs) {
      this.counters.desiredIgnored++;
      return;
    }
    this.lastAppliedMs.set(record.key, this.watermark(record));
    let result: Sample;
    try {
      result = subChannel ? errorSample(Errno.EROFS) : await this.write(slot, record.value);
    } catch (e) {
      const error = toAgentError(e);
      result = errorSample(error.errno ?? Errno.EIO);
    }
    this.counters.desiredApplied++;
    if (!result.ok) {
      this.logger.log('warn', 'desired value not applied', { key: record.key, errno: result.errno });
    }
    const now = this.clock.monotonicMs();
    if (subChannel) {
      this.reporter.state(record.key + StateSide.reported, false, undefined, Errno.EROFS, now, true);
      this.onEcho(record.key, record.value, errorSample(Errno.EROFS));
      return;
    }
    const echoed = slot.scale(result);
    slot.remember(echoed, now);
    this.reporter.channel(slot.key, slot.isLocation, echoed, now, true);
    this.onEcho(slot.key, record.value, echoed);
  }

  /** The record's time, or the device's time when the record is dated beyond it plus the tolerance. */
  private watermark(record: DesiredRecord): number {
    const nowMs = this.wallTime.nowMs();
    if (nowMs === undefined || record.timestampMs <= nowMs + this.options.toleranceMs) return record.timestampMs;
    this.faultyMs.set(record.key, record.timestampMs);
    if (!this.warnedFault.has(record.key)) {
      this.warnedFault.add(record.key);
      this.logger.log('warn', 'desired value dated ahead of the device clock: applied, ordered by the device time', {
        key: record.key,
        timestamp: new Date(record.timestampMs).toISOString(),
        deviceTime: new Date(nowMs).toISOString(),
        toleranceMs: this.options.toleranceMs,
      });
    }
    return nowMs;
  }

  private async write(slot: ChannelSlot, value: Value): Promise<Sample> {
    const kind = slot.writeKind;
    const apply = slot.driver.applyDesired;
    if (kind === 'none' || apply === undefined) return errorSample(Errno.EROFS);
    const typed = coerce(value, kind);
    if (typed === undefined) return errorSample(Errno.EINVAL);
    if (typeof typed === 'boolean' || !slot.scaled) return await apply.call(slot.driver, typed);
    const raw = valueToRaw(typed, slot.gain, slot.offset, slot.driver.rawRange);
    if (!raw.ok) return errorSample(raw.errno);
    return await apply.call(slot.driver, raw.raw);
  }
}

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
