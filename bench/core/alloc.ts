/**
 * Allocation on the pin path, measured by its effect: garbage collections
 * (V8 scavenges) observed while 32 pin channels are scanned a million times
 * with a steady input (transmit event `change`, so nothing is reported), for
 * the agent's ChannelSlot over the pins provider and for the naive peer
 * (a record object and its JSON text per sample). A scan that allocates
 * nothing triggers no collection. Both are warmed up first: V8's interpreter
 * boxes every floating-point intermediate, optimized code does not.
 */
import { PerformanceObserver } from 'node:perf_hooks';
import { ChannelSlot, type SampleSink, type SlotContext } from '../../src/agent/channel-slot.js';
import { createCounters } from '../../src/agent/counters.js';
import type { PinChannel } from '../../src/config/model.js';
import { PinChannelProvider } from '../../src/pins/provider.js';
import { SimPins } from '../../host-sim/pins/sim-pins.js';
import { FakeClock } from '../../test/fakes/fake-clock.js';

const channels = 32;

async function countGcs(work: () => void): Promise<number> {
  let count = 0;
  const observer = new PerformanceObserver((list) => (count += list.getEntries().length));
  observer.observe({ entryTypes: ['gc'] });
  work();
  await new Promise((resolve) => setTimeout(resolve, 50)); // gc entries are delivered asynchronously
  observer.disconnect();
  return count;
}

export async function measureAllocation(scans: number): Promise<{ oursGcs: number; naiveGcs: number; scans: number }> {
  const clock = new FakeClock();
  const pins = new SimPins(clock);
  const provider = new PinChannelProvider(pins);
  const sink: SampleSink = { sampled: (slot, s, at) => slot.decide(s, at), echoed: () => undefined };
  const counters = createCounters();
  const context: SlotContext = { sink, counters, scaled: { ok: true, value: 0 } };
  const slots = Array.from({ length: channels }, (_, i) => {
    pins.setSource(i, () => 1234);
    const channel: PinChannel = {
      key: `ch${i}`,
      type: 'analogInput',
      pin: i,
      scaleGain: 0.1,
      scaleOffset: -40,
      scanIntervalMs: 100,
      transmitEvents: [{ type: 'change' }],
    };
    return new ChannelSlot(channel, provider.create(channel), context, 0, channel.transmitEvents);
  });
  const scanAll = (from: number, count: number): void => {
    for (let n = from; n < from + count; n++) for (let i = 0; i < channels; i++) slots[i]!.scan(n * 100);
  };
  scanAll(0, 20000); // first samples are reported, and the JIT optimizes the path: not measured
  const oursGcs = await countGcs(() => scanAll(20000, scans / channels));
  const inputs = Array.from({ length: channels }, (_, i) => pins.analogInput({ pin: i }));
  const names = Array.from({ length: channels }, (_, i) => `ch${i}.reported`);
  const lastValue = new Float64Array(channels).fill(NaN);
  const queue: string[] = [];
  let sent = 0;
  const naive = (from: number, count: number): void => {
    for (let n = from; n < from + count; n++) {
      for (let i = 0; i < channels; i++) {
        const value = inputs[i]!.read() * 0.1 - 40;
        if (value === lastValue[i]) continue; // decide first: nothing is built for an unchanged value
        lastValue[i] = value;
        queue.push(JSON.stringify({ channel: names[i]!, value, timestamp: n / 10 }));
        sent++;
      }
    }
  };
  naive(0, 20000);
  const naiveGcs = await countGcs(() => naive(20000, scans / channels));
  if (sent > channels) throw new Error('naive peer reported a steady value');
  return { oursGcs, naiveGcs, scans };
}
