/**
 * The workload of bench/xs.mjs: the agent core's whole pipeline for 16 analog
 * channels, on fakes, with no host: each scan reads a pin, scales, decides
 * (transmit events: empty list, so every sample is reported), builds the
 * state record, batches it, appends it to the outbox (persisted through the
 * store port) and sends it over a transport that answers 200 at once.
 *
 * Modes (bench.setup's third argument), for the per-stage split of bench/xs.mjs:
 * - `full`: the whole pipeline above;
 * - `decide`: the same agent and channels, each with a `delta` transmit event that the moving inputs
 *   never reach: every sample is read, scaled and decided, none after the first is reported;
 * - `harness`: no agent at all: the same scan loop (inputs moved, clock advanced, microtasks settled),
 *   the baseline that xsnap's and the bench's own allocation and compute are measured by.
 *
 * It runs unchanged on XS (xsnap) and on Node; it installs `globalThis.__bench`.
 * The fakes here keep nothing per request, so memory growth is the core's own;
 * the pins are shaped like the firmware's adapter (a class instance per pin).
 */
import { Agent } from '../../src/agent/agent.js';
import { PinChannelProvider } from '../../src/pins/provider.js';
import { AgentError } from '../../src/errors.js';
import type {
  AnalogInput,
  DigitalInput,
  DigitalOutput,
  HttpRequest,
  HttpResponse,
  HttpTransport,
  LogFields,
  Logger,
  LogLevel,
  Pins,
  PwmOutput,
} from '../../src/ports.js';
import { Paths } from '../../src/wire.js';
import { FakeClock, settle } from '../../test/fakes/fake-clock.js';
import { FakeStore } from '../../test/fakes/fake-store.js';

export const CHANNELS = 16;
export const SCAN_MS = 100;
/** Channels of the current setup (bench.setup). */
let channelCount = CHANNELS;
/** Steady inputs: values do not move, and `change` events report nothing (the heap-per-channel figures). */
let steady = false;
export type BenchMode = 'full' | 'decide' | 'harness';
let mode: BenchMode = 'full';
/** A `delta` no scaled value reaches (inputs span -5..36): decided every scan, never reported. */
const NEVER_REPORTED = { type: 'delta', minimalChange: 1e6 };

/** Answers the configuration, and 200 to every write; counts, keeps nothing. */
class SinkHttp implements HttpTransport {
  requests = 0;
  writes = 0;
  bytes = 0;
  constructor(private readonly channels: string) {}
  request(request: HttpRequest): Promise<HttpResponse> {
    this.requests++;
    const path = request.url.replace(/^[a-z]+:\/\/[^/]+/, '').split('?')[0];
    if (request.method === 'POST') {
      this.writes++;
      this.bytes += request.body?.length ?? 0;
      return Promise.resolve({ status: 200, headers: {}, body: '{}' });
    }
    const body =
      path === Paths.channelsList
        ? this.channels
        : path === Paths.devicesGet
          ? '{"uid":"u","key":"dev","name":"d"}'
          : '{}';
    return Promise.resolve({ status: 200, headers: {}, body });
  }
}

/**
 * Analog inputs shaped as the firmware's adapter makes them (targets/moddable/pins.ts): one small class
 * instance per pin and no closures, so the heap per channel is the core's plus what a board's adapter adds.
 */
class BenchAnalog implements AnalogInput {
  readonly resolution = 12;
  constructor(
    private readonly levels: number[],
    private readonly index: number,
  ) {}
  read(): number {
    return this.levels[this.index] ?? 0;
  }
  close(): void {}
}

class BenchPins implements Pins {
  /** Raw counts by pin - 32. */
  readonly levels: number[] = [];
  analogInput({ pin }: { pin: number }): AnalogInput {
    return new BenchAnalog(this.levels, pin - 32);
  }
  digitalInput(): DigitalInput {
    throw new AgentError('pin.unavailable', 'bench: analog inputs only');
  }
  digitalOutput(): DigitalOutput {
    throw new AgentError('pin.unavailable', 'bench: analog inputs only');
  }
  pwmOutput(): PwmOutput {
    throw new AgentError('pin.unavailable', 'bench: analog inputs only');
  }
}

class CountingLogger implements Logger {
  readonly counts: Record<LogLevel, number> = { debug: 0, info: 0, warn: 0, error: 0 };
  log(level: LogLevel, _message: string, _fields?: LogFields): void {
    this.counts[level]++;
  }
}

function channelList(): string {
  const channels = [];
  for (let i = 0; i < channelCount; i++) {
    channels.push({
      uid: `uid-${i}`,
      key: `ch${i}`,
      name: `Channel ${i}`,
      type: 'analogInput',
      pin: 32 + i,
      scanInterval: SCAN_MS,
      scaleGain: 0.01,
      scaleOffset: -5,
      transmitEvents: steady ? [{ type: 'change' }] : mode === 'decide' ? [NEVER_REPORTED] : [],
    });
  }
  return JSON.stringify({ buses: [], channels });
}

const clock = new FakeClock();
const pins = new BenchPins();
let http = new SinkHttp('');
const store = new FakeStore();
const logger = new CountingLogger();
let agent: Agent | undefined;
let round = 0;

/** Moves every analog input so each scan carries a new value (steady: sets them once). */
function moveInputs(): void {
  if (steady && round > 0) return;
  round++;
  for (let i = 0; i < channelCount; i++) pins.levels[i] = (round * 37 + i * 101) % 4096;
}

export const bench = {
  /** Starts the agent on `channels` analog channels and lets it read its configuration (`harness`: no agent). */
  async setup(channels = CHANNELS, steadyInputs = false, benchMode: BenchMode = 'full'): Promise<void> {
    channelCount = channels;
    steady = steadyInputs;
    mode = benchMode;
    http = new SinkHttp(channelList());
    agent = undefined;
    if (mode === 'harness') {
      moveInputs();
      await clock.advanceAsync(0);
      return;
    }
    agent = new Agent({
      clock,
      http,
      store,
      logger,
      service: { baseUrl: 'http://dds.bench', device: 'dev', token: 't' },
      providers: [new PinChannelProvider(pins)],
    });
    moveInputs();
    await agent.start();
    await clock.advanceAsync(0);
  },
  /** Runs `count` scans of all channels (one sample each), letting sends proceed between scans. */
  async scans(count: number): Promise<void> {
    for (let i = 0; i < count; i++) {
      moveInputs();
      clock.advance(SCAN_MS);
      await settle(4);
    }
  },
  /** Lets the last batch age out and be delivered. */
  async drain(): Promise<void> {
    await clock.advanceAsync(2000);
  },
  /** What went through, to check the bench measured real work. */
  stats(): Record<string, number> {
    const c = agent?.counters ?? { sampled: 0, reported: 0, sent: 0, queued: 0, dropped: 0 };
    return {
      sampled: c.sampled,
      reported: c.reported,
      sent: c.sent,
      requests: http.requests,
      writes: http.writes,
      wireBytes: http.bytes,
      queued: c.queued,
      dropped: c.dropped,
      storeKeys: store.data.size,
      errors: logger.counts.error,
      warnings: logger.counts.warn,
    };
  },
};

(globalThis as { __bench?: typeof bench }).__bench = bench;
