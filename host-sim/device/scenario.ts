/**
 * The scenario file of the simulated device (`--scenario FILE`, JSON or YAML):
 *
 *   { "channels": { "<channel key>": <signal>, ... } }
 *
 * where a signal is one of (values in the channel's engineering units):
 *   { "kind": "constant", "value": 21.5 }            (or true/false for digital)
 *   { "kind": "toggle", "periodMs": 5000, "initial": false }
 *   { "kind": "toggle", "pattern": [4000, 1000] }     (ms low, ms high, ...)
 *   { "kind": "ramp", "from": 0, "to": 100, "periodMs": 60000 }
 *   { "kind": "sine", "mean": 21, "amplitude": 3, "periodMs": 60000 }
 *   { "kind": "noise", "mean": 3.7, "amplitude": 0.05, "seed": 7 }
 *   { "kind": "csv", "file": "recorded.csv", "loop": true }   (lines "timeMs,value")
 * Channels not listed get a default signal (`defaultSignal` below), so the
 * simulated device works with any product's channels: every input channel moves
 * a little, each at its own pace (derived from the pin or key).
 */
import { parse as parseYaml } from 'yaml';
import type { Channel } from '../../src/config/model.js';
import type { SignalSpec } from '../pins/signals.js';

export interface Scenario {
  channels: Record<string, SignalSpec>;
}

const kinds = ['constant', 'toggle', 'ramp', 'sine', 'noise', 'csv'] as const;
const numeric: Record<string, readonly string[]> = {
  ramp: ['from', 'to', 'periodMs'],
  sine: ['mean', 'amplitude', 'periodMs'],
  noise: ['mean', 'amplitude'],
};

function fail(where: string, why: string): never {
  throw new Error(`scenario: ${where}: ${why}`);
}

function parseSignal(key: string, raw: unknown): SignalSpec {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) fail(key, 'expected an object');
  const o = raw as Record<string, unknown>;
  const kind = o['kind'];
  if (typeof kind !== 'string' || !(kinds as readonly string[]).includes(kind)) {
    fail(key, `"kind" must be one of ${kinds.join(', ')}`);
  }
  for (const field of numeric[kind] ?? []) {
    if (typeof o[field] !== 'number' || !Number.isFinite(o[field])) fail(key, `"${field}" must be a number`);
  }
  if ((kind === 'ramp' || kind === 'sine') && !((o['periodMs'] as number) > 0)) fail(key, '"periodMs" must be > 0');
  if (kind === 'constant' && typeof o['value'] !== 'number' && typeof o['value'] !== 'boolean') {
    fail(key, '"value" must be a number or a boolean');
  }
  if (kind === 'toggle') {
    const p = o['pattern'];
    if (p !== undefined && (!Array.isArray(p) || !p.every((x) => typeof x === 'number' && x > 0))) {
      fail(key, '"pattern" must be a list of positive ms');
    }
    if (o['periodMs'] !== undefined && !((o['periodMs'] as number) > 0)) fail(key, '"periodMs" must be > 0');
  }
  if (kind === 'csv' && typeof o['file'] !== 'string' && typeof o['data'] !== 'string') {
    fail(key, '"file" (a path) or "data" (the CSV text) is required');
  }
  return o as unknown as SignalSpec;
}

/** Parses scenario text (JSON, or YAML when `yaml` is true). Throws Error naming the bad entry. */
export function parseScenario(text: string, yaml = false): Scenario {
  let body: unknown;
  try {
    body = yaml ? (parseYaml(text) as unknown) : (JSON.parse(text) as unknown);
  } catch (e) {
    fail('file', `not ${yaml ? 'YAML' : 'JSON'}: ${e instanceof Error ? e.message : String(e)}`);
  }
  if (typeof body !== 'object' || body === null) fail('file', 'expected an object with "channels"');
  const channels = (body as Record<string, unknown>)['channels'] ?? {};
  if (typeof channels !== 'object' || channels === null || Array.isArray(channels))
    fail('channels', 'expected an object');
  const out: Record<string, SignalSpec> = {};
  for (const [key, raw] of Object.entries(channels)) out[key] = parseSignal(key, raw);
  return { channels: out };
}

function spread(channel: Channel): number {
  if ('pin' in channel) return channel.pin;
  let h = 0;
  for (let i = 0; i < channel.key.length; i++) h = (h * 31 + channel.key.charCodeAt(i)) >>> 0;
  return h;
}

/**
 * The default signal of an input channel, or undefined for outputs and for
 * types other helpers simulate (location, modbus, can). Analog values sit at
 * 15 % of the input's full scale (in engineering units) with a slow sine.
 */
export function defaultSignal(channel: Channel, analogResolution: number): SignalSpec | undefined {
  const n = spread(channel);
  switch (channel.type) {
    case 'digitalInput':
      return { kind: 'toggle', periodMs: 3000 + (n % 5) * 1000 };
    case 'analogInput': {
      const full = 2 ** analogResolution - 1;
      const mean = 0.15 * full * channel.scaleGain + channel.scaleOffset;
      const amplitude = Math.abs(0.01 * full * channel.scaleGain);
      return { kind: 'sine', mean, amplitude, periodMs: 30000 + (n % 7) * 5000 };
    }
    case 'custom':
      if (!channel.readOnly) return undefined;
      if (channel.customType === 'boolean') return { kind: 'toggle', periodMs: 10000 + (n % 5) * 1000 };
      return { kind: 'ramp', from: 0, to: 3600, periodMs: 3600000 };
    default:
      return undefined;
  }
}
