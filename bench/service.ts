/**
 * `npm run bench:service` (docs/service.md): the local Device Data Service over
 * HTTP beside its fair peer, measured in one run. The peer is raw better-sqlite3
 * as its authors intend it (prepared statements, one transaction per batch,
 * raw rows), in memory like the service, on the service's schema and key
 * (bench/service/peer.ts), given the same rows. The two sides alternate in
 * rounds (writes) or request by request (reads), so that the load of the
 * machine falls on both alike:
 *  1. ingest: `measurements/write`, 4 lanes, against the peer's inserts of
 *     the same rows (ratio service/raw; aim >= 0.5), in batches of 100 points
 *     and in the agent's full batch (`defaultBatchOptions.maxRecords`, 500: what
 *     a busy or reconnecting device sends); a request costs the same HTTP work
 *     whatever its size, so the ratio grows with the batch;
 *  2. concurrent writers: 16 devices, each its own token and connection,
 *     batches of 100 states: records/s, request p50/p99, process RSS; the peer
 *     stores the same batches round-robin (SQLite has one writer);
 *  3. a windowed `states/read` of one channel-hour of 1 Hz data, 1 m windows
 *     (aim p99 < 10 ms), beside the peer's GROUP BY mean per window;
 *  4. `states/read/last` across 1,000 channels (aim p99 < 10 ms), beside the
 *     peer's newest row per series;
 *  5. the fair share (service/fair-share.ts; cases 1-4 run with the budget lifted).
 * The service runs in a worker thread; the client and the peer run on the main
 * thread. Where Linux tells (sched.ts), each case also gives the CPU time of
 * the service thread and of the peer, and the service thread's wait for a core:
 * on a shared machine the latencies include that wait, the CPU times do not.
 * Prints ratios; the last line is one JSON object of the figures.
 */
import { Agent } from 'node:http';
import { isMainThread } from 'node:worker_threads';
import {
  channelCount,
  deviceKey,
  send,
  serveInWorker,
  startServiceWorker,
  unbudgeted,
  type ServiceWorker,
} from './service/http.js';
import { fairShare, fairShareFigures, printFairShare } from './service/fair-share.js';
import { RawPeer } from './service/peer.js';
import { defaultBatchOptions } from '../src/report/batcher.js';
import { perItemMs, threadSched } from './service/sched.js';
import {
  batchSize,
  concurrentWriters,
  ingest,
  latency,
  oneDeviceOnePoint,
  rounds,
  roundMs,
  type Latency,
} from './service/write.js';

const readRuns = 500;

const mib = (bytes: number): number => Number((bytes / 1048576).toFixed(1));
const fixed = (v: number | undefined, digits: number): string => (v === undefined ? 'n/a' : v.toFixed(digits));

interface ReadSide extends Latency {
  /** Records (rows) in the last answer. */
  n: number;
  /** CPU ms per request of the service thread (service side) or of the peer's query (raw side). */
  cpuMs: number | undefined;
  /** The service thread's wait for a core per request (service side only). */
  waitMs: number | undefined;
}

/** `readRuns` times: one HTTP GET, then the peer's query; then the peer's CPU time over `readRuns` more. */
async function alternate(
  service: ServiceWorker,
  agent: Agent,
  path: string,
  raw: () => number,
): Promise<{ service: ReadSide; raw: ReadSide }> {
  const times = { service: [] as number[], raw: [] as number[] };
  const n = { service: 0, raw: 0 };
  const serviceBefore = await service.sched();
  for (let i = 0; i < readRuns; i++) {
    let t0 = performance.now();
    n.service = (JSON.parse(await send(agent, `${service.url}${path}`, 'GET')) as unknown[]).length;
    times.service.push(performance.now() - t0);
    t0 = performance.now();
    n.raw = raw();
    times.raw.push(performance.now() - t0);
  }
  const serviceCpu = perItemMs(serviceBefore, await service.sched(), readRuns);
  // Linux brings a thread's CPU time up to date at ticks and switches only: the peer's is read over a
  // block of queries, not around each one.
  const rawBefore = threadSched();
  for (let i = 0; i < readRuns; i++) raw();
  const rawCpu = perItemMs(rawBefore, threadSched(), readRuns);
  return {
    service: { ...latency(times.service), n: n.service, cpuMs: serviceCpu?.cpuMs, waitMs: serviceCpu?.waitMs },
    raw: {
      ...latency(times.raw),
      n: n.raw,
      cpuMs: rawCpu?.cpuMs,
      waitMs: undefined,
    },
  };
}

function printRead(label: string, r: { service: ReadSide; raw: ReadSide }): void {
  console.log(
    `${label}: p50 ${r.service.p50} ms, p99 ${r.service.p99} ms (aim p99 < 10 ms); service thread CPU ` +
      `${fixed(r.service.cpuMs, 3)} ms/request, waiting for a core ${fixed(r.service.waitMs, 3)} ms/request`,
  );
  console.log(
    `  raw query (${r.raw.n} rows): p50 ${r.raw.p50} ms, p99 ${r.raw.p99} ms, CPU ${fixed(r.raw.cpuMs, 3)} ms; ` +
      `ratios service/raw: p50 ${(r.service.p50 / r.raw.p50).toFixed(2)}, p99 ${(r.service.p99 / r.raw.p99).toFixed(2)}`,
  );
}

/** `--fair-share`: case 5 alone (what issue 28 asks for, in about 15 s). */
async function fairShareOnly(): Promise<void> {
  const fair = await fairShare(new URL(import.meta.url));
  printFairShare(fair);
  console.log(JSON.stringify(fairShareFigures(fair)));
}

async function main(): Promise<void> {
  const service = await startServiceWorker(new URL(import.meta.url), unbudgeted);
  const url = service.url;
  const peer = new RawPeer();
  const agent = new Agent({ keepAlive: true, maxSockets: 4 });
  try {
    const ing = await ingest(service, peer);
    const ratio = ing.service.recordsPerSec / ing.raw.recordsPerSec;
    const cpuRatio = (ing.raw.cpuMsPerRecord ?? NaN) / (ing.service.cpuMsPerRecord ?? NaN);
    console.log(
      `measurements/write ingest: ${ing.service.recordsPerSec.toFixed(0)} points/s (HTTP, batches of ${batchSize}, ` +
        `4 lanes; request p50 ${ing.service.p50} ms, p99 ${ing.service.p99} ms)`,
    );
    console.log(`raw better-sqlite3 insert of the same rows: ${ing.raw.recordsPerSec.toFixed(0)} points/s`);
    console.log(
      `ratio service/raw: ${ratio.toFixed(3)} (aim >= 0.5; ${rounds} alternating rounds of ${roundMs} ms each); ` +
        `CPU per point: service thread ${fixed(ing.service.cpuMsPerRecord, 5)} ms, raw ` +
        `${fixed(ing.raw.cpuMsPerRecord, 5)} ms, ratio raw/service ${cpuRatio.toFixed(3)}`,
    );

    const agentBatch = defaultBatchOptions.maxRecords;
    const full = await ingest(service, peer, agentBatch);
    const fullRatio = full.service.recordsPerSec / full.raw.recordsPerSec;
    console.log(
      `measurements/write ingest in the agent's full batch (${agentBatch} points, 4 lanes): ` +
        `${full.service.recordsPerSec.toFixed(0)} points/s (request p50 ${full.service.p50} ms, p99 ${full.service.p99} ms), ` +
        `raw ${full.raw.recordsPerSec.toFixed(0)} points/s; ratio service/raw ${fullRatio.toFixed(3)} (aim >= 0.5); ` +
        `CPU per point: service thread ${fixed(full.service.cpuMsPerRecord, 5)} ms, raw ${fixed(full.raw.cpuMsPerRecord, 5)} ms`,
    );

    const floorMs = await oneDeviceOnePoint(service, readRuns);
    const perRequestMs = (ing.service.cpuMsPerRecord ?? NaN) * batchSize;
    console.log(
      `  of which HTTP: a one-point write costs the service thread ${fixed(floorMs, 3)} ms of CPU; a ${batchSize}-point ` +
        `write ${perRequestMs.toFixed(3)} ms, the peer's ${batchSize} rows ${((ing.raw.cpuMsPerRecord ?? NaN) * batchSize).toFixed(3)} ms`,
    );

    const cw = await concurrentWriters(service, peer);
    const writersRatio = cw.service.recordsPerSec / cw.raw.recordsPerSec;
    console.log(
      `${cw.service.recordsPerSec.toFixed(0)} records/s from 16 concurrent writers (own device and token each): ` +
        `request p50 ${cw.service.p50} ms, p99 ${cw.service.p99} ms; RSS ${mib(cw.rssBefore)} MiB before, ` +
        `peak ${mib(cw.rssPeak)} MiB (service, client and peer in one process)`,
    );
    console.log(
      `  raw, the same batches: ${cw.raw.recordsPerSec.toFixed(0)} records/s, batch p50 ${cw.raw.p50} ms, ` +
        `p99 ${cw.raw.p99} ms; ratio service/raw ${writersRatio.toFixed(3)}; CPU per record: service thread ` +
        `${fixed(cw.service.cpuMsPerRecord, 5)} ms, raw ${fixed(cw.raw.cpuMsPerRecord, 5)} ms`,
    );

    // One channel-hour of 1 Hz data, in the service over HTTP and in the peer.
    const now = Date.now();
    const hour = Array.from({ length: 3600 }, (_, i) => ({ ts: now - 3600_000 + i * 1000, value: 20 + (i % 10) }));
    for (let s = 0; s < hour.length; s += batchSize) {
      const states = hour
        .slice(s, s + batchSize)
        .map((p) => ({ channel: 'temperature.reported', value: p.value, timestamp: p.ts / 1000 }));
      await send(agent, `${url}/api/v1/states/write`, 'POST', JSON.stringify({ device: deviceKey(0), states }));
    }
    peer.write(
      'states',
      hour.map((p) => ({ device: 'd-0', name: 'temperature.reported', ts: p.ts, value: p.value })),
    );
    const windowed = await alternate(
      service,
      agent,
      `/api/v1/states/read?devices=${deviceKey(0)}&channels=temperature.reported&timeRangeStart=-1h&windowPeriod=1m`,
      () => peer.windowed('d-0', 'temperature.reported', Date.now() - 3600_000, Date.now(), 60_000),
    );
    printRead(`windowed states/read, 3600 points -> ${windowed.service.n} windows`, windowed);

    const states = Array.from({ length: channelCount }, (_, i) => ({ channel: `c${i}.reported`, value: i }));
    await send(agent, `${url}/api/v1/states/write`, 'POST', JSON.stringify({ device: deviceKey(0), states }));
    peer.write(
      'states',
      states.map((s, i) => ({ device: 'd-0', name: s.channel, ts: now, value: i })),
    );
    const last = await alternate(
      service,
      agent,
      `/api/v1/states/read/last?device=${deviceKey(0)}&channels=*.reported`,
      () => peer.last('d-0'),
    );
    printRead(`states/read/last across ${last.service.n} channels`, last);
    const fair = await fairShare(new URL(import.meta.url));
    printFairShare(fair);
    console.log(
      JSON.stringify({
        ingestPointsPerSec: Math.round(ing.service.recordsPerSec),
        rawInsertPointsPerSec: Math.round(ing.raw.recordsPerSec),
        ingestRatio: Number(ratio.toFixed(3)),
        agentBatchPoints: agentBatch,
        agentBatchIngestPointsPerSec: Math.round(full.service.recordsPerSec),
        agentBatchRawPointsPerSec: Math.round(full.raw.recordsPerSec),
        agentBatchIngestRatio: Number(fullRatio.toFixed(3)),
        agentBatchIngestCpuMsPerPoint: full.service.cpuMsPerRecord,
        ingestCpuMsPerPoint: ing.service.cpuMsPerRecord,
        rawCpuMsPerPoint: ing.raw.cpuMsPerRecord,
        ingestCpuRatio: Number(cpuRatio.toFixed(3)),
        onePointWriteCpuMs: floorMs,
        writers: 16,
        writersRecordsPerSec: Math.round(cw.service.recordsPerSec),
        writersP50Ms: cw.service.p50,
        writersP99Ms: cw.service.p99,
        rawWritersRecordsPerSec: Math.round(cw.raw.recordsPerSec),
        rawWritersP50Ms: cw.raw.p50,
        rawWritersP99Ms: cw.raw.p99,
        writersRatio: Number(writersRatio.toFixed(3)),
        rssBeforeWritersMiB: mib(cw.rssBefore),
        writersPeakRssMiB: mib(cw.rssPeak),
        readRuns,
        windowedReadP50Ms: windowed.service.p50,
        windowedReadP99Ms: windowed.service.p99,
        windowedServiceCpuMs: windowed.service.cpuMs,
        windowedServiceWaitMs: windowed.service.waitMs,
        rawWindowedP50Ms: windowed.raw.p50,
        rawWindowedP99Ms: windowed.raw.p99,
        rawWindowedCpuMs: windowed.raw.cpuMs,
        readLast1000P50Ms: last.service.p50,
        readLast1000P99Ms: last.service.p99,
        readLastServiceCpuMs: last.service.cpuMs,
        readLastServiceWaitMs: last.service.waitMs,
        rawLast1000P50Ms: last.raw.p50,
        rawLast1000P99Ms: last.raw.p99,
        rawLastCpuMs: last.raw.cpuMs,
        ...fairShareFigures(fair),
      }),
    );
  } finally {
    agent.destroy();
    peer.close();
    await service.stop();
  }
}

const usage = 'usage: npm run bench:service [-- --fair-share]  (--fair-share: case 5 alone)';
if (!isMainThread) await serveInWorker();
else if (process.argv.includes('--help')) console.log(usage);
else {
  const unknown = process.argv.slice(2).filter((a) => a !== '--fair-share');
  if (unknown.length > 0) {
    console.error(`bench:service: unexpected argument ${JSON.stringify(unknown[0])}\n${usage}`);
    process.exit(2);
  }
  await (process.argv.includes('--fair-share') ? fairShareOnly() : main());
}
