/**
 * What the dashboard shows of a device's channels: the agent's own parser of
 * `channels/list` (src/config/parse.ts, so defaults match decisions 1 and a channel
 * the agent rejects is not shown), the display fields it checks but does not keep
 * (src/wire.ts `ChannelDisplay`), then the grouping (`group`, `order`, `visible`),
 * the display unit, whether a channel
 * plots, and which control writes its `.desired` side within its range
 * (decisions 2: scaling; analog outputs are 10-bit PWM on both targets).
 */
import type { Channel, DataType, DisplayFields } from '../../../src/config/model.js';
import { parseChannelList } from '../../../src/config/parse.js';
import { errnoName } from '../../../src/errno.js';
import { isObject, read } from '../../../src/reader.js';
import { ChannelDisplay } from '../../../src/wire.js';

export type Control =
  | { kind: 'none' }
  | { kind: 'switch' }
  | { kind: 'number'; min?: number; max?: number; step: number | 'any'; slider: boolean };

export interface ChannelView {
  key: string;
  name: string;
  type: Channel['type'];
  unit: string;
  /** Plotted from `states/read` (numeric values). */
  numeric: boolean;
  control: Control;
}

export interface ChannelGroup {
  name: string;
  channels: ChannelView[];
}

/** Analog output (PWM) resolution the targets use by default. */
export const pwmResolutionBits = 10;

const intRange: Partial<Record<DataType, [number, number]>> = {
  int8: [-128, 127],
  uint8: [0, 255],
  int16: [-32768, 32767],
  uint16: [0, 65535],
  int32: [-2147483648, 2147483647],
  uint32: [0, 4294967295],
};

function scaled(c: Channel, raw: [number, number], slider: boolean): Control {
  const a = raw[0] * c.scaleGain + c.scaleOffset;
  const b = raw[1] * c.scaleGain + c.scaleOffset;
  return { kind: 'number', min: Math.min(a, b), max: Math.max(a, b), step: Math.abs(c.scaleGain), slider };
}

function controlOf(c: Channel): Control {
  switch (c.type) {
    case 'digitalOutput':
      return { kind: 'switch' };
    case 'analogOutput':
      return scaled(c, [0, 2 ** pwmResolutionBits - 1], true);
    case 'custom':
      if (c.readOnly) return { kind: 'none' };
      if (c.customType === 'boolean') return { kind: 'switch' };
      return { kind: 'number', step: c.customType === 'number' ? 1 : 'any', slider: false };
    case 'modbus': {
      if (c.readOnly) return { kind: 'none' };
      if (c.registerType === 'coil' || c.dataType === 'bool') return { kind: 'switch' };
      const r = intRange[c.dataType];
      return r ? scaled(c, r, false) : { kind: 'number', step: 'any', slider: false };
    }
    default:
      return { kind: 'none' };
  }
}

function isNumeric(c: Channel): boolean {
  if (c.type === 'analogInput' || c.type === 'analogOutput') return true;
  if (c.type === 'custom') return c.customType !== 'boolean';
  if (c.type === 'modbus' || c.type === 'can')
    return c.dataType !== 'bool' && !(c.type === 'modbus' && c.registerType === 'coil');
  return false;
}

/** Visible channels grouped: groups in the order of their first channel, channels by `order`, then name. */
export function groupChannels(body: unknown): ChannelGroup[] {
  const { channels } = parseChannelList(body);
  const display = displayByKey(body);
  const shown = channels.map((c) => ({ c, d: display.get(c.key)! })).filter(({ d }) => d.visible);
  shown.sort((a, b) => (a.d.order ?? Infinity) - (b.d.order ?? Infinity) || a.d.name.localeCompare(b.d.name));
  const groups = new Map<string, ChannelGroup>();
  for (const { c, d } of shown) {
    const name = d.group ?? 'Other';
    const g = groups.get(name) ?? { name, channels: [] };
    g.channels.push({
      key: c.key,
      name: d.name,
      type: c.type,
      unit: d.unit ?? '',
      numeric: isNumeric(c),
      control: controlOf(c),
    });
    groups.set(name, g);
  }
  return [...groups.values()];
}

/**
 * The display fields of each key, from its first channel entry in `body` whose display fields are valid (every
 * channel the parser accepts has one: it checks them too).
 */
function displayByKey(body: unknown): Map<string, DisplayFields> {
  const byKey = new Map<string, DisplayFields>();
  for (const raw of (body as { channels: unknown[] }).channels) {
    if (!isObject(raw) || typeof raw['key'] !== 'string' || byKey.has(raw['key'])) continue;
    try {
      byKey.set(raw['key'], read(raw, ChannelDisplay, 'channel'));
    } catch {
      // A rejected channel's: the parser reports it.
    }
  }
  return byKey;
}

/** `-110 ETIMEDOUT`. */
export function formatErrno(errno: number): string {
  return `${errno} ${errnoName(errno)}`;
}

/** A value for display: numbers to at most 3 decimals, booleans as on/off, with the unit. */
export function formatValue(value: unknown, unit: string): string {
  let text: string;
  if (typeof value === 'number') text = String(Math.round(value * 1000) / 1000);
  else if (typeof value === 'boolean') text = value ? 'on' : 'off';
  else if (typeof value === 'string') text = value;
  else text = JSON.stringify(value);
  return unit === '' || typeof value === 'boolean' ? text : `${text} ${unit}`;
}
