/**
 * Core cost per sample: decode (a uint16 from a Modbus-style register window,
 * src/codec/field.ts), scale, transmit decision, and enqueue (record encoding,
 * batching, outbox) through the agent's own ChannelSlot, Reporter, Batcher and
 * Outbox, against a naive peer measured in the same run, written the way a
 * competent engineer would without the agent's machinery: one DataView per
 * register window (made once), the scaled value compared as a number BEFORE
 * anything is built (nothing is encoded for a sample that is not reported), a
 * numeric timestamp (Unix seconds), and one JSON request body per reported
 * record, queued as text (the queue is emptied as a sender would).
 */
import { ChannelSlot, type SampleSink, type SlotContext } from '../../src/agent/channel-slot.js';
import { createCounters } from '../../src/agent/counters.js';
import type { Sample } from '../../src/agent/driver.js';
import { decodeData, isFailure, type Decoded } from '../../src/codec/field.js';
import type { Channel, TransmitEvent } from '../../src/config/model.js';
import { Batcher, byteLength, defaultBatchOptions } from '../../src/report/batcher.js';
import { encodeRecord, stampTail } from '../../src/report/records.js';
import { defaultOutboxOptions } from '../../src/report/outbox-options.js';
import { Outbox } from '../../src/report/outbox.js';
import { Reporter } from '../../src/report/reporter.js';
import { WallTime } from '../../src/time/wall-time.js';
import { MemoryStore } from '../../targets/node/store.js';
import { FakeClock } from '../../test/fakes/fake-clock.js';

const channels = 32;
const layout = { dataType: 'uint16', dataOrder: 'bigEndian', dataOffsetBits: 0, dataSizeBits: 16 } as const;
const silent = { log: (): void => undefined };

/** Register windows per channel: the value moves by one count per scan (0.1 engineering units). */
function windows(): Uint8Array[] {
  return Array.from({ length: channels }, () => new Uint8Array(2));
}

function channel(i: number, events: TransmitEvent[]): Channel {
  return {
    key: `ch${i}`,
    type: 'modbus',
    bus: 'rs485',
    deviceAddress: 1,
    registerType: 'inputRegister',
    registerAddress: i,
    readOnly: true,
    ...layout,
    scaleGain: 0.1,
    scaleOffset: -40,
    scanIntervalMs: 100,
    transmitEvents: events,
  };
}

function tick(win: Uint8Array, n: number): void {
  const raw = 600 + (n % 50);
  win[0] = raw >> 8;
  win[1] = raw & 0xff;
}

/** Our pipeline; answers ns per sample and the records reported. */
export function measureOurs(samples: number, events: TransmitEvent[]): { nsPerSample: number; reported: number } {
  const clock = new FakeClock();
  const counters = createCounters();
  const outbox = new Outbox(
    new MemoryStore(),
    { ...defaultOutboxOptions, maxRecords: 1e6, maxBytes: 1e9, prefix: 'o/' },
    silent,
    clock,
  );
  const batcher = new Batcher(clock, defaultBatchOptions, (lane, json, count, bytes) =>
    outbox.append(lane, json, count, bytes),
  );
  const reporter = new Reporter(new WallTime(clock), batcher, counters);
  const sink: SampleSink = {
    sampled: (slot, s, at) => {
      const due = slot.decide(s, at);
      if (due) reporter.channel(slot.key, false, s, at);
      return due;
    },
    echoed: () => undefined,
  };
  const context: SlotContext = { sink, counters, scaled: { ok: true, value: 0 } };
  const wins = windows();
  const slots = wins.map((win, i) => {
    const sample: { ok: true; value: number } = { ok: true, value: 0 };
    const failed: Sample = { ok: false, errno: -5 };
    const driver = {
      sample: (): Sample => {
        const d: Decoded = decodeData(win, layout);
        if (isFailure(d)) return failed;
        sample.value = d as number;
        return sample;
      },
      close: () => undefined,
    };
    const c = channel(i, events);
    return new ChannelSlot(c, driver, context, 0, c.transmitEvents);
  });
  const start = process.hrtime.bigint();
  for (let n = 0; n < samples / channels; n++) {
    const now = n * 100;
    for (let i = 0; i < channels; i++) {
      tick(wins[i]!, n + i);
      slots[i]!.scan(now);
    }
    // More than 8 batches of 500 records (the clock stands still: batches close full) are delivered.
    if (outbox.records > 4000) for (let b = outbox.peek(); b !== undefined; b = outbox.peek()) outbox.remove(b.seq);
  }
  batcher.flush();
  const ns = Number(process.hrtime.bigint() - start);
  return { nsPerSample: ns / samples, reported: counters.reported };
}

/** The naive peer: the same work, written the straightforward way (see the header). */
export function measureNaive(samples: number, deltaOnly: boolean): { nsPerSample: number; reported: number } {
  const wins = windows();
  const views = wins.map((w) => new DataView(w.buffer, w.byteOffset, w.byteLength));
  const names = Array.from({ length: channels }, (_, i) => `ch${i}.reported`);
  const lastValue = new Float64Array(channels).fill(NaN);
  let queue: string[] = [];
  let reported = 0;
  const t0 = Date.UTC(2026, 0, 1);
  const start = process.hrtime.bigint();
  for (let n = 0; n < samples / channels; n++) {
    for (let i = 0; i < channels; i++) {
      tick(wins[i]!, n + i);
      const value = views[i]!.getUint16(0, false) * 0.1 - 40;
      const previous = lastValue[i]!;
      if (deltaOnly && !Number.isNaN(previous) && Math.abs(value - previous) < 0.5) continue; // decide first
      lastValue[i] = value;
      const record = { channel: names[i]!, value, timestamp: (t0 + n * 100) / 1000 };
      queue.push(JSON.stringify({ device: 'bench-001', states: [record] }));
      reported++;
    }
    if (queue.length > 4096) queue = [];
  }
  const ns = Number(process.hrtime.bigint() - start);
  return { nsPerSample: ns / samples, reported };
}

/**
 * Where a reported sample's time goes, stage by stage, each timed alone over
 * the same inputs: decode (register window to number), encode (the record's
 * JSON text, src/report/records.ts) and byte count (what the batcher charges
 * the record). The rest of `measureOurs` (scaling, the transmit decision,
 * batching, the outbox) is its total minus these.
 */
export function measureSplit(samples: number): { decodeNs: number; encodeNs: number; byteCountNs: number } {
  const wins = windows();
  const names = Array.from({ length: channels }, (_, i) => `ch${i}`); // states of `ch<i>.reported`
  let sink = 0;
  const time = (work: (n: number, i: number) => void): number => {
    const start = process.hrtime.bigint();
    for (let n = 0; n < samples / channels; n++) for (let i = 0; i < channels; i++) work(n, i);
    return Number(process.hrtime.bigint() - start) / samples;
  };
  const t0 = Date.UTC(2026, 0, 1);
  const stages = (): { decodeNs: number; encodeNs: number; byteCountNs: number } => ({
    decodeNs: time((n, i) => {
      tick(wins[i]!, n + i);
      const d = decodeData(wins[i]!, layout);
      if (!isFailure(d)) sink += d as number;
    }),
    encodeNs: time((n, i) => {
      const value = ((600 + ((n + i) % 50)) * 0.1 - 40) as number;
      sink += (encodeRecord('s', names[i]!, true, value) + stampTail(t0 + n * 100)).length;
    }),
    byteCountNs: time((n, i) => {
      sink += byteLength(encodeRecord('s', names[i]!, true, (n + i) % 50) + stampTail(t0 + n * 100));
    }),
  });
  stages(); // warm-up
  const s = stages();
  if (sink === 0.5) console.log(sink); // keeps the work observable
  return { ...s, byteCountNs: Math.max(0, s.byteCountNs - s.encodeNs) };
}
