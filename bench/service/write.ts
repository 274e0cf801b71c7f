/**
 * The write cases of `bench:service`: ingest (4 HTTP lanes of 100-point
 * `measurements/write` batches, and of the agent's full 500-record batch) and 16 concurrent writers (one device, token
 * and connection each, 100-state `states/write` batches), each in rounds that
 * alternate with the raw peer storing the same rows. Besides wall-clock rates
 * it keeps the CPU time of the service thread and of the peer (sched.ts), the
 * figure a loaded machine does not distort.
 */
import { Agent } from 'node:http';
import { deviceKey, send, writers, type ServiceWorker } from './http.js';
import type { PeerRow, RawPeer } from './peer.js';
import { perItemMs, threadSched, type Sched } from './sched.js';
import { percentile } from '../stats.js';

export const batchSize = 100;
export const rounds = 6;
export const roundMs = 500;
const baseMs = Date.now() - 20 * 86_400_000;

export interface Latency {
  p50: number;
  p99: number;
}

export function latency(times: readonly number[]): Latency {
  const sorted = [...times].sort((a, b) => a - b);
  return { p50: Number(percentile(sorted, 50).toFixed(3)), p99: Number(percentile(sorted, 99).toFixed(3)) };
}

/** Records per second, request (or batch) latency, and CPU ms per record of the side's storing thread. */
export interface WriteSide extends Latency {
  recordsPerSec: number;
  cpuMsPerRecord: number | undefined;
}

/** Main-thread CPU used by `work`, added to `into`. */
function addSched(into: { cpuNs: number; waitNs: number }, before: Sched | undefined): void {
  const after = threadSched();
  if (before === undefined || after === undefined) return;
  into.cpuNs += after.cpuNs - before.cpuNs;
  into.waitNs += after.waitNs - before.waitNs;
}

/**
 * Runs `rounds` rounds: `http` (which resolves with the request latencies it
 * measured) for `roundMs`, then `raw` batch by batch for `roundMs`.
 */
async function alternateRounds(
  service: ServiceWorker,
  size: number,
  http: (untilMs: number) => Promise<number[]>,
  raw: (batch: number) => void,
): Promise<{ service: WriteSide; raw: WriteSide }> {
  const times = { service: [] as number[], raw: [] as number[] };
  const ms = { service: 0, raw: 0 };
  const rawSched = { cpuNs: 0, waitNs: 0 };
  const serviceBefore = await service.sched();
  for (let round = 0; round < rounds; round++) {
    let t0 = performance.now();
    times.service.push(...(await http(t0 + roundMs)));
    ms.service += performance.now() - t0;
    const before = threadSched();
    t0 = performance.now();
    while (performance.now() - t0 < roundMs) {
      const s0 = performance.now();
      raw(times.raw.length);
      times.raw.push(performance.now() - s0);
    }
    ms.raw += performance.now() - t0;
    addSched(rawSched, before);
  }
  const serviceAfter = await service.sched();
  const side = (t: number[], wallMs: number, cpuMs: number | undefined): WriteSide => ({
    recordsPerSec: (t.length * size) / (wallMs / 1000),
    ...latency(t),
    cpuMsPerRecord: cpuMs,
  });
  const serviceCpu = perItemMs(serviceBefore, serviceAfter, times.service.length * size)?.cpuMs;
  const rawCpu = serviceBefore === undefined ? undefined : rawSched.cpuNs / 1e6 / (times.raw.length * size);
  return { service: side(times.service, ms.service, serviceCpu), raw: side(times.raw, ms.raw, rawCpu) };
}

/**
 * Ingest: 4 lanes of `measurements/write` into device 0, batches of `size`
 * points, against the peer's inserts of the same rows.
 */
export function ingest(
  service: ServiceWorker,
  peer: RawPeer,
  size: number = batchSize,
): Promise<{ service: WriteSide; raw: WriteSide }> {
  const agent = new Agent({ keepAlive: true, maxSockets: 4 });
  let ts = baseMs;
  const http = async (untilMs: number): Promise<number[]> => {
    const times: number[] = [];
    const lane = async (): Promise<void> => {
      while (performance.now() < untilMs) {
        const start = ts;
        ts += size;
        const measurements = [];
        for (let i = 0; i < size; i++)
          measurements.push({ metric: `c${i}`, value: i * 0.5, timestamp: (start + i) / 1000 });
        const t0 = performance.now();
        const body = JSON.stringify({ device: deviceKey(0), measurements });
        await send(agent, `${service.url}/api/v1/measurements/write`, 'POST', body);
        times.push(performance.now() - t0);
      }
    };
    await Promise.all([lane(), lane(), lane(), lane()]);
    return times;
  };
  const raw = (batch: number): void => {
    const start = baseMs + batch * size;
    const rows: PeerRow[] = [];
    for (let i = 0; i < size; i++) rows.push({ device: 'd-0', name: `c${i}`, ts: start + i, value: i * 0.5 });
    peer.write('measurements', rows);
  };
  return alternateRounds(service, size, http, raw).finally(() => agent.destroy());
}

/** Concurrent writers: 16 devices with their own token and connection; the peer stores the same batches round-robin. */
export async function concurrentWriters(
  service: ServiceWorker,
  peer: RawPeer,
): Promise<{ service: WriteSide; raw: WriteSide; rssBefore: number; rssPeak: number }> {
  const agents = Array.from({ length: writers }, () => new Agent({ keepAlive: true, maxSockets: 1 }));
  const next = agents.map(() => baseMs);
  const rssBefore = process.memoryUsage().rss;
  let rssPeak = rssBefore;
  const http = async (untilMs: number): Promise<number[]> => {
    const times: number[] = [];
    const writer = async (w: number): Promise<void> => {
      const key = deviceKey(w + 1);
      while (performance.now() < untilMs) {
        const ts = next[w] as number;
        next[w] = ts + batchSize;
        const states = [];
        for (let k = 0; k < batchSize; k++)
          states.push({ channel: `c${k}.reported`, value: k, timestamp: (ts + k) / 1000 });
        const t0 = performance.now();
        const body = JSON.stringify({ device: key, states });
        await send(agents[w] as Agent, `${service.url}/api/v1/states/write`, 'POST', body, `token-${key}`);
        times.push(performance.now() - t0);
        rssPeak = Math.max(rssPeak, process.memoryUsage().rss);
      }
    };
    await Promise.all(agents.map((_, w) => writer(w)));
    return times;
  };
  const raw = (batch: number): void => {
    const w = batch % writers;
    const ts = baseMs + Math.floor(batch / writers) * batchSize;
    const rows: PeerRow[] = [];
    for (let k = 0; k < batchSize; k++)
      rows.push({ device: `d-${w + 1}`, name: `c${k}.reported`, ts: ts + k, value: k });
    peer.write('states', rows);
  };
  try {
    return { ...(await alternateRounds(service, batchSize, http, raw)), rssBefore, rssPeak };
  } finally {
    for (const a of agents) a.destroy();
  }
}

/**
 * The service thread's CPU per request for `runs` one-point writes, one at a
 * time: what HTTP (Node's server, the router, the body, the answer) costs a
 * request before its points do.
 */
export async function oneDeviceOnePoint(service: ServiceWorker, runs: number): Promise<number | undefined> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  try {
    const before = await service.sched();
    for (let i = 0; i < runs; i++) {
      const body = JSON.stringify({ device: deviceKey(0), measurements: [{ metric: 'c0', value: i }] });
      await send(agent, `${service.url}/api/v1/measurements/write`, 'POST', body);
    }
    return perItemMs(before, await service.sched(), runs)?.cpuMs;
  } finally {
    agent.destroy();
  }
}
