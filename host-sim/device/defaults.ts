/**
 * Default signals of the simulated device, so that it works with any
 * product's channels: every input channel moves a little, each at its own
 * pace (derived from the pin or key, so two channels do not change in step).
 */
import type { Channel } from '../../src/config/model.js';
import type { SignalSpec } from '../pins/signals.js';

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
