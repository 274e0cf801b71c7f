/**
 * The fair-share scenario of `bench:service` (decisions 10), also run by a
 * test (test/service/flood.test.ts): one device token floods `properties/set`
 * (strings at the property limit) and `states/write` (100-state batches) on
 * four connections as fast as the service answers, so it runs at its budget
 * and meets 429s; meanwhile another device reads its own `states/read/last`
 * every `readEveryMs`. The reader's latencies are taken the same way with no
 * flood first (the quiet reader); the figures are the two p99s and their ratio,
 * the flooder's 200s and 429s, and the growth of RSS and of the database files.
 */
import { statSync } from 'node:fs';
import { Agent } from 'node:http';
import { defaultLimits } from '../../host-sim/service/limits.js';
import { Paths } from '../../src/wire.js';
import { defaultCheckpointerOptions } from '../../host-sim/service/store/checkpointer.js';
import { call, sharedNow, startFlooder, type Span } from './flooder.js';
import { ThreadProbe, type ThreadFigures } from './probe.js';
import { latency, type Latency } from './write.js';
import { adminToken, deviceKey } from './http.js';

export interface FloodTarget {
  url: string;
  adminToken: string;
  /** The flooding device: key and token. */
  flooder: { key: string; token: string };
  /** The reading device: key and token. */
  reader: { key: string; token: string };
  /** Database file (its -wal beside it), for the growth; undefined in memory. */
  dbPath: string | undefined;
  /** RSS of the process that runs the service, bytes. */
  rss(): Promise<number>;
  /** Probes of the service's thread (event loop, collections), when it runs apart from the reader. */
  serviceProbe?: { start(): void; stop(): Promise<ThreadFigures> };
}

/**
 * The scenario's target against a service at `url` seeded with the bench fixture: its admin token, device 1
 * floods, device 0 reads, the database at `dbPath`, this process's RSS; `serviceProbe` when the service runs in a
 * worker of its own.
 */
export function floodTarget(
  url: string,
  dbPath: string | undefined,
  serviceProbe?: FloodTarget['serviceProbe'],
): FloodTarget {
  return {
    url,
    adminToken,
    flooder: { key: deviceKey(1), token: `token-${deviceKey(1)}` },
    reader: { key: deviceKey(0), token: `token-${deviceKey(0)}` },
    dbPath,
    rss: async () => process.memoryUsage().rss,
    ...(serviceProbe === undefined ? {} : { serviceProbe }),
  };
}

/** Both threads' figures (probe.ts) over one phase: the reader's and, when probed, the service's. */
export interface PhaseThreads {
  reader: ThreadFigures;
  service: ThreadFigures | undefined;
}

export interface FloodFigures {
  quiet: Latency & { reads: number };
  flooded: Latency & { reads: number };
  /** Reads over 10 ms, quiet and flooded. */
  slowQuiet: number;
  slowFlooded: number;
  /**
   * The flooded reads that overlapped an accepted write of the flooder (sent before the read ended,
   * answered after it began), and the others.
   */
  besideWrite: Latency & { reads: number };
  apart: Latency & { reads: number };
  quietThreads: PhaseThreads;
  floodedThreads: PhaseThreads;
  p99Ratio: number;
  flooderOk: number;
  flooder429: number;
  flooderOther: number;
  acceptedStates: number;
  rssGrowthMiB: number;
  dbGrowthMiB: number;
  /**
   * The quota the database growth is held to: accepted states x 256 B, the flooder's property rows at
   * their bound (64 x 4 KiB, rewritten in place), and the WAL up to its bound (the service's own
   * checkpoint past 2,000 pages of 4 KiB).
   */
  dbQuotaMiB: number;
}

/**
 * The WAL's bound: the service's connection checkpoints it past `backstopFrames` pages of 4 KiB (its
 * checkpoint thread restarts it well before, host-sim/service/store/checkpointer.ts).
 */
const walCheckpointBytes = defaultCheckpointerOptions.backstopFrames * 4096 + 65536;

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
const mib = (bytes: number): number => Number((bytes / 1048576).toFixed(2));

function dbBytes(path: string | undefined): number {
  if (path === undefined) return 0;
  let n = 0;
  for (const p of [path, `${path}-wal`]) {
    try {
      n += statSync(p).size;
    } catch {
      // no WAL yet
    }
  }
  return n;
}

/** Reads the reader's newest states every `everyMs` for `durationMs`; each read's span. */
async function readLoop(t: FloodTarget, agent: Agent, durationMs: number, everyMs: number): Promise<Span[]> {
  const path = `${Paths.statesReadLast}?device=${encodeURIComponent(t.reader.key)}`;
  const spans: Span[] = [];
  const end = performance.now() + durationMs;
  while (performance.now() < end) {
    const startMs = sharedNow();
    const r = await call(agent, t.url + path, 'GET', t.reader.token);
    if (r.status !== 200) throw new Error(`reader answered ${r.status}`);
    spans.push([startMs, sharedNow(), r.status]);
    await sleep(everyMs);
  }
  return spans;
}

const ms = (spans: readonly Span[]): number[] => spans.map(([start, end]) => end - start);
const withReads = (spans: readonly Span[]): Latency & { reads: number } => ({
  ...latency(spans.length === 0 ? [0] : ms(spans)),
  reads: spans.length,
});

export async function runFlood(t: FloodTarget, durationMs = 5000, readEveryMs = 20): Promise<FloodFigures> {
  const readerAgent = new Agent({ keepAlive: true, maxSockets: 1 });
  try {
    // The reader's device has a few channels' newest states; the admin defines the flooder's property.
    const seed = Array.from({ length: 10 }, (_, i) => ({ channel: `c${i}.reported`, value: i }));
    const w = await call(
      readerAgent,
      t.url + Paths.statesWrite,
      'POST',
      t.reader.token,
      JSON.stringify({ device: t.reader.key, states: seed }),
    );
    const p = await call(
      readerAgent,
      t.url + Paths.propertiesSet,
      'POST',
      t.adminToken,
      JSON.stringify({ device: t.flooder.key, values: { note: '' } }),
    );
    if (w.status !== 200 || p.status !== 200) throw new Error(`seed answered ${w.status}, ${p.status}`);
    const probe = new ThreadProbe();
    const probed = async <T>(phase: () => Promise<T>): Promise<[T, PhaseThreads]> => {
      probe.start();
      t.serviceProbe?.start();
      const result = await phase();
      return [result, { reader: probe.stop(), service: await t.serviceProbe?.stop() }];
    };
    const [quiet, quietThreads] = await probed(() => readLoop(t, readerAgent, durationMs, readEveryMs));

    const rssBefore = await t.rss();
    const dbBefore = dbBytes(t.dbPath);
    const flooder = await startFlooder({ url: t.url, key: t.flooder.key, token: t.flooder.token, lanes: 4 });
    const [[flooded, counts], floodedThreads] = await probed(async () => {
      flooder.go();
      const times = await readLoop(t, readerAgent, durationMs, readEveryMs).catch(async (e: unknown) => {
        await flooder.stop().catch(() => undefined);
        throw e;
      });
      return [times, await flooder.stop()] as const;
    });
    const rssGrowth = (await t.rss()) - rssBefore;
    const dbGrowth = dbBytes(t.dbPath) - dbBefore;
    const q = latency(ms(quiet));
    const f = latency(ms(flooded));
    const writes = counts.spans.filter(([, , status]) => status === 200);
    const besideWrite = flooded.filter(([start, end]) => writes.some(([ws, we]) => ws < end && we > start));
    return {
      quiet: { ...q, reads: quiet.length },
      flooded: { ...f, reads: flooded.length },
      slowQuiet: ms(quiet).filter((x) => x > 10).length,
      slowFlooded: ms(flooded).filter((x) => x > 10).length,
      besideWrite: withReads(besideWrite),
      apart: withReads(flooded.filter((read) => !besideWrite.includes(read))),
      quietThreads,
      floodedThreads,
      p99Ratio: Number((f.p99 / q.p99).toFixed(2)),
      flooderOk: counts.ok,
      flooder429: counts.limited,
      flooderOther: counts.other,
      acceptedStates: counts.states,
      rssGrowthMiB: mib(rssGrowth),
      dbGrowthMiB: mib(dbGrowth),
      dbQuotaMiB: mib(
        counts.states * 256 +
          defaultLimits.maxPropertiesPerDevice * (defaultLimits.maxPropertyBytes + 256) +
          walCheckpointBytes,
      ),
    };
  } finally {
    readerAgent.destroy();
  }
}
