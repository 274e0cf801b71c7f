/**
 * Benchmark of the local Device Data Service (issue 3), measured in one run:
 *  1. sustained `measurements/write` ingest over HTTP, batches of 100 points,
 *     next to a raw better-sqlite3 batched insert of the same rows (the ratio
 *     is the figure; aim >= 0.3);
 *  2. a windowed `states/read` over one channel-hour of 1 Hz data (aim < 5 ms);
 *  3. `states/read/last` across 1,000 channels (aim < 10 ms).
 * The service runs in a worker thread on a WAL database file, as the CLI runs
 * it; the client and the peer run on the main thread. Last line: JSON figures.
 */
import Database from 'better-sqlite3';
import { Agent, request } from 'node:http';
import { join } from 'node:path';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import tmp from 'tmp';
import { startService, type Fixture } from '../host-sim/service/index.js';

const token = 'bench-admin';
const channelCount = 1000;
const batchSize = 100;
const ingestMs = 3000;

function fixture(): Fixture {
  const channels = [{ uid: 'c-temp', key: 'temperature', type: 'custom', aggregated: 'mean' }];
  for (let i = 0; i < channelCount; i++)
    channels.push({ uid: `c-${i}`, key: `c${i}`, type: 'custom', aggregated: 'last' });
  return {
    products: [{ uid: 'p-bench', name: 'Bench', enabled: true, buses: [], channels, metrics: [] }],
    locations: [],
    devices: [
      { uid: 'd-bench', key: 'bench-001', name: 'Bench device', enabled: true, product: 'p-bench', properties: {} },
    ],
    relations: [],
    tokens: [{ token, role: 'admin' }],
  };
}

if (!isMainThread) {
  const service = await startService({ fixture: fixture(), dbPath: (workerData as { dbPath: string }).dbPath });
  parentPort?.postMessage(service.url);
  parentPort?.once('message', () => void service.close().then(() => process.exit(0)));
} else {
  await main();
}

function send(agent: Agent, url: string, method: string, body?: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method, agent, headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => (text += d));
        res.on('end', () => (res.statusCode === 200 ? resolve(text) : reject(new Error(`${res.statusCode} ${text}`))));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

function batchBody(startMs: number, n: number): string {
  const measurements = [];
  for (let i = 0; i < n; i++)
    measurements.push({ metric: `c${i % channelCount}`, value: i * 0.5, timestamp: (startMs + i) / 1000 });
  return JSON.stringify({ device: 'bench-001', measurements });
}

async function ingest(agent: Agent, url: string): Promise<number> {
  let points = 0;
  let ts = Date.now() - 1e9;
  const until = performance.now() + ingestMs;
  const t0 = performance.now();
  const lane = async (): Promise<void> => {
    while (performance.now() < until) {
      const start = ts;
      ts += batchSize;
      await send(agent, `${url}/api/v1/measurements/write`, 'POST', batchBody(start, batchSize));
      points += batchSize;
    }
  };
  await Promise.all([lane(), lane(), lane(), lane()]);
  return points / ((performance.now() - t0) / 1000);
}

function rawPeer(dir: string): number {
  const db = new Database(join(dir, 'peer.db'));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.exec(
    'CREATE TABLE m (device TEXT NOT NULL, name TEXT NOT NULL, ts INTEGER NOT NULL, v, PRIMARY KEY (device, name, ts)) WITHOUT ROWID',
  );
  const insert = db.prepare('INSERT OR REPLACE INTO m (device, name, ts, v) VALUES (?, ?, ?, ?)');
  const batch = db.transaction((startMs: number) => {
    for (let i = 0; i < batchSize; i++) insert.run('d-bench', `c${i % channelCount}`, startMs + i, i * 0.5);
  });
  let points = 0;
  let ts = Date.now() - 1e9;
  const t0 = performance.now();
  while (performance.now() - t0 < ingestMs) {
    batch(ts);
    ts += batchSize;
    points += batchSize;
  }
  const rate = points / ((performance.now() - t0) / 1000);
  db.close();
  return rate;
}

async function latencyMs(
  agent: Agent,
  url: string,
  runs: number,
): Promise<{ p50: number; p99: number; records: number }> {
  const times: number[] = [];
  let records = 0;
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    records = (JSON.parse(await send(agent, url, 'GET')) as unknown[]).length;
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  const at = (q: number): number =>
    Number((times[Math.min(times.length - 1, Math.floor(q * times.length))] as number).toFixed(3));
  return { p50: at(0.5), p99: at(0.99), records };
}

async function main(): Promise<void> {
  const dir = tmp.dirSync({ unsafeCleanup: true });
  const worker = new Worker(new URL(import.meta.url), { workerData: { dbPath: join(dir.name, 'service.db') } });
  const url = await new Promise<string>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  const agent = new Agent({ keepAlive: true, maxSockets: 8 });
  try {
    const ingestRate = await ingest(agent, url);
    const rawRate = rawPeer(dir.name);
    const ratio = ingestRate / rawRate;
    console.log(
      `measurements/write ingest: ${ingestRate.toFixed(0)} points/s (HTTP, batches of ${batchSize}, 4 lanes)`,
    );
    console.log(`raw better-sqlite3 batched insert: ${rawRate.toFixed(0)} points/s`);
    console.log(`ratio service/raw: ${ratio.toFixed(3)} (aim >= 0.3)`);

    // One channel-hour of 1 Hz data, written in batches of 100 over HTTP.
    const now = Date.now();
    for (let s = 0; s < 3600; s += 100) {
      const states = [];
      for (let i = s; i < s + 100; i++)
        states.push({
          channel: 'temperature.reported',
          value: 20 + (i % 10),
          timestamp: (now - 3600_000 + i * 1000) / 1000,
        });
      await send(agent, `${url}/api/v1/states/write`, 'POST', JSON.stringify({ device: 'bench-001', states }));
    }
    const windowed = await latencyMs(
      agent,
      `${url}/api/v1/states/read?devices=bench-001&channels=temperature.reported&timeRangeStart=-1h&windowPeriod=1m`,
      200,
    );
    console.log(
      `windowed states/read, 3600 points -> ${windowed.records} windows: p50 ${windowed.p50} ms, p99 ${windowed.p99} ms (aim < 5 ms)`,
    );

    const states = [];
    for (let i = 0; i < channelCount; i++) states.push({ channel: `c${i}.reported`, value: i });
    await send(agent, `${url}/api/v1/states/write`, 'POST', JSON.stringify({ device: 'bench-001', states }));
    const last = await latencyMs(agent, `${url}/api/v1/states/read/last?device=bench-001&channels=*.reported`, 200);
    console.log(
      `states/read/last across ${last.records} channels: p50 ${last.p50} ms, p99 ${last.p99} ms (aim < 10 ms)`,
    );

    console.log(
      JSON.stringify({
        ingestPointsPerSec: Math.round(ingestRate),
        rawInsertPointsPerSec: Math.round(rawRate),
        ingestRatio: Number(ratio.toFixed(3)),
        windowedReadP50Ms: windowed.p50,
        windowedReadP99Ms: windowed.p99,
        readLast1000P50Ms: last.p50,
        readLast1000P99Ms: last.p99,
      }),
    );
  } finally {
    agent.destroy();
    worker.postMessage('close');
    await new Promise((resolve) => worker.once('exit', resolve));
    dir.removeCallback();
  }
}
