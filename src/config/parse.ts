/**
 * Validates a `channels/list` response (spec 4.5) into the typed model with the
 * record tables of src/wire.ts. A bad bus or channel is rejected alone, with a
 * reason that names its path (`channels[3].scanInterval: expected number >= 10,
 * got "abc"`); the others keep working. Unknown fields are ignored and missing
 * optional fields take their defaults (decisions 1 and 8). What one field's rule
 * cannot say is checked here: the bus a channel names, `dataSize` against the
 * data type, the type-dependent `readOnly` defaults, a CAN channel's identifier,
 * and unique keys.
 */
import { AgentError } from '../errors.js';
import { BusRecord, CanExtraFields, ChannelRecord, DataTypeBits, RegisterReadOnly } from '../wire.js';
import { arr, fail, obj, opt, read, type Rule, type WireObject } from '../reader.js';
import { type Bus, type Channel, type ChannelConfig, type RejectedChannel } from './model.js';

/** One channel at path `at`; throws AgentError `wire.invalid` naming the field. */
function parseChannel(value: unknown, at: string, buses: readonly Bus[]): Channel {
  const c = ChannelRecord(value, at);
  if (c.type !== 'modbus' && c.type !== 'can') return c;
  if (!buses.some((b) => b.key === c.bus && b.type === c.type)) fail(`${at}.bus`, `key of a ${c.type} bus`, c.bus);
  const width = DataTypeBits[c.dataType];
  // Floats and siemensTotalType take their whole width; integers fewer bits (bool has one either way).
  const exact = !c.dataType.includes('int');
  const dataSizeBits = c.dataSizeBits ?? width;
  if (dataSizeBits > width || (exact && dataSizeBits < width)) {
    fail(`${at}.dataSize`, `${exact ? width : `1..${width}`} bits for ${c.dataType}`, dataSizeBits);
  }
  if (c.type === 'modbus') return { ...c, dataSizeBits, readOnly: c.readOnly ?? RegisterReadOnly[c.registerType] };
  if (c.canId === undefined && c.protocol === undefined) fail(`${at}.canId`, 'integer, or a protocol', undefined);
  const o = value as WireObject;
  // A `protocol` that is not an object has none of these fields (Object() of it reads undefined).
  const extra = { ...read(Object(o['protocol']), CanExtraFields, `${at}.protocol`), ...read(o, CanExtraFields, at) };
  return { ...c, ...extra, dataSizeBits, readOnly: extra.readOnly ?? true };
}

const text = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/**
 * The whole `channels/list` body. Throws `wire.invalid` only when the body itself
 * is not `{ buses?, channels }`; bad buses and channels are rejected one by one.
 * With `own` the body is given up (a parse made for this call): each entry leaves
 * its array as it is read, so the body and the configuration made of it are never
 * both whole (on a board, 32 channels' worth of slots at a configuration change).
 */
export function parseChannelList(body: unknown, own = false): ChannelConfig {
  const o = obj(body, 'channels/list');
  const rejected: RejectedChannel[] = [];
  /** The entries that `parse` accepts; each one it refuses is added to `rejected`. */
  const each = <T>(field: string, list: readonly unknown[], parse: Rule<T>): T[] =>
    list.flatMap((raw, i) => {
      if (own) (list as unknown[])[i] = undefined;
      try {
        return [parse(raw, `${field}[${i}]`)];
      } catch (e) {
        if (!(e instanceof AgentError)) throw e;
        const r = Object(raw) as WireObject; // a primitive or an array has no key or uid either
        rejected.push({ key: text(r['key']), uid: text(r['uid']), reason: e.message });
        return [];
      }
    });
  const buses: Bus[] = each('buses', opt(arr, [])(o['buses'], 'buses'), BusRecord);
  const keys = new Set<string>();
  const channels = each('channels', arr(o['channels'], 'channels'), (raw, at) => {
    const channel = parseChannel(raw, at, buses);
    if (keys.has(channel.key)) fail(`${at}.key`, 'a key not used before', channel.key);
    keys.add(channel.key);
    return channel;
  });
  return { buses, channels, rejected };
}
