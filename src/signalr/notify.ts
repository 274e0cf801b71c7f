/**
 * Validates the `Notify` argument of decisions.md section 5 into what the agent
 * applies: `{type:"states", entity, states:[State record]}` yields the
 * `.desired` records (channel `<product_uid>:<key>.desired`, timestamp Unix
 * seconds → ms); `{type:"properties", entity, values}` yields the changed
 * properties. `.reported` records and unknown `type`s are skipped; anything
 * malformed throws AgentError `wire.invalid`.
 */
import { AgentError } from '../errors.js';
import { asArray, asObject, optString, reqNumber, reqString, type WireObject } from '../config/fields.js';
import type { DesiredRecord } from '../agent/desired.js';
import type { Value } from '../agent/driver.js';
import { Hub, StateSide } from '../wire.js';

export type NotifyEvent =
  | { kind: 'states'; entity: string | undefined; desired: DesiredRecord[] }
  | { kind: 'properties'; entity: string | undefined; values: Record<string, Value> }
  | { kind: 'other'; type: string | undefined };

function isValue(v: unknown): v is Value {
  return typeof v === 'boolean' || typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v));
}

/** `<product_uid>:<key>.desired` → `<key>`; undefined for any other channel name. */
export function desiredKey(channel: string): string | undefined {
  if (!channel.endsWith(StateSide.desired)) return undefined;
  const key = channel.slice(channel.indexOf(':') + 1, channel.length - StateSide.desired.length);
  return key === '' ? undefined : key;
}

function parseState(o: WireObject): DesiredRecord | undefined {
  const key = desiredKey(reqString(o, 'channel'));
  if (key === undefined) return undefined;
  const value = o['value'];
  if (!isValue(value)) throw new AgentError('wire.invalid', `Notify state ${key}.desired: value is not a state value`);
  return { key, value, timestampMs: Math.round(reqNumber(o, 'timestamp', { min: 0 }) * 1000) };
}

/** Validates a property object (values boolean, number or string). */
export function parseProperties(value: unknown, field: string): Record<string, Value> {
  const o = asObject(value, field);
  const values: Record<string, Value> = {};
  for (const name of Object.keys(o)) {
    const v = o[name];
    if (!isValue(v)) throw new AgentError('wire.invalid', `${field}.${name}: not a boolean, number or string`);
    values[name] = v;
  }
  return values;
}

/** Validates one `Notify` argument. */
export function parseNotify(arg: unknown): NotifyEvent {
  const o = asObject(arg, 'Notify argument');
  const type = optString(o, 'type');
  const entity = optString(o, 'entity');
  if (type === Hub.notifyStates) {
    const desired: DesiredRecord[] = [];
    for (const state of asArray(o['states'], 'states')) {
      const record = parseState(asObject(state, 'states[]'));
      if (record !== undefined) desired.push(record);
    }
    return { kind: 'states', entity, desired };
  }
  if (type === Hub.notifyProperties)
    return { kind: 'properties', entity, values: parseProperties(o['values'], 'values') };
  return { kind: 'other', type };
}
