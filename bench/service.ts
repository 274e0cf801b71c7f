/**
 * Benchmark of the local Device Data Service, measured in one run beside a
 * fair peer: raw better-sqlite3 on the same schema (history table keyed by
 * device, name, ts), in memory like the service, doing the same work without
 * HTTP, JSON or validation:
 *  1. ingest: `measurements/write` over HTTP, batches of 100 points, 4 lanes,
 *     against the peer's prepared insert of the same rows in one transaction
 *     per batch (ratio service/raw; aim >= 0.5);
 *  2. concurrent writers: 16 devices, each its own token and connection,
 *     batches of 100 states: records/s, request p50/p99, process RSS;
 *  3. a windowed `states/read` over one channel-hour of 1 Hz data (aim p99 <
 *     10 ms) beside the peer's GROUP BY window query on the same rows;
 *  4. `states/read/last` across 1,000 channels (aim p99 < 10 ms) beside the
 *     peer's newest-row-per-name query.
 * The service runs in a worker thread with `:memory:` storage; the client and
 * the peer run on the main thread. Last line: one JSON object of the figures.
 */
import Database from 'better-sqlite3';
import { Agent, request } from 'node:http';
import { isMainThread, parentPort, Worker } from 'node:worker_threads';
import { startService, type Fixture } from '../host-sim/service/index.js';

const token = 'bench-admin';
const channelCount = 1000;
const batchSize = 100;
const ingestMs = 3000;
const writers = 16;

function fixture(): Fixture {
  const channels = [{ uid: 'c-temp', key: 'temperature', type: 'custom', aggregated: 'mean' }];
  for (let i = 0; i < channelCount; i++)
    channels.push({ uid: `c-${i}`, key: `c${i}`, type: 'custom', aggregated: 'last' });
  const devices = Array.from({ length: writers + 1 }, (_, i) => ({
    uid: `d-${i}`,
    key: `bench-${String(i).padStart(3, '0')}`,
    name: `Bench device ${i}`,
    enabled: true,
    product: 'p-bench',
    properties: {},
  }));
  return {
    products: [{ uid: 'p-bench', name: 'Bench', enabled: true, buses: [], channels, metrics: [] }],
    locations: [],
    devices,
    relations: [],
    tokens: [
      { token, role: 'admin' },
      ...devices.map((d) => ({ token: `token-${d.key}`, role: 'device' as const, device: d.uid })),
    ],
  };
}

function send(agent: Agent, url: string, method: string, body?: string, bearer = token): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method, agent, headers: { Authorization: `Bearer ${bearer}`, 'Content-Type': 'application/json' } },
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

function quantiles(times: number[]): { p50: number; p99: number } {
  const sorted = [...times].sort((a, b) => a - b);
  const at = (q: number): number =>
    Number((sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] as number).toFixed(3));
  return { p50: at(0.5), p99: at(0.99) };
}

const baseMs = Date.now() - 20 * 86_400_000;

function batchBody(device: string, startMs: number, n: number): string {
  const measurements = [];
  for (let i = 0; i < n; i++)
    measurements.push({ metric: `c${i % channelCount}`, value: i * 0.5, timestamp: (startMs + i) / 1000 });
  return JSON.stringify({ device, measurements });
}

async function ingest(agent: Agent, url: string): Promise<number> {
  let points = 0;
  let ts = baseMs;
  const until = performance.now() + ingestMs;
  const t0 = performance.now();
  const lane = async (): Promise<void> => {
    while (performance.now() < until) {
      const start = ts;
      ts += batchSize;
      await send(agent, `${url}/api/v1/measurements/write`, 'POST', batchBody('bench-000', start, batchSize));
      points += batchSize;
    }
  };
  await Promise.all([lane(), lane(), lane(), lane()]);
  return points / ((performance.now() - t0) / 1000);
}

/** The peer: the same rows, the same key, one prepared insert per point in one transaction per batch. */
function rawIngest(db: Database.Database): number {
  const insert = db.prepare('INSERT OR REPLACE INTO m (device, name, ts, tag, v) VALUES (?, ?, ?, ?, ?)');
  const batch = db.transaction((startMs: number) => {
    for (let i = 0; i < batchSize; i++) insert.run('d-0', `c${i % channelCount}`, startMs + i, 'n', i * 0.5);
  });
  let points = 0;
  let ts = baseMs;
  const t0 = performance.now();
  while (performance.now() - t0 < ingestMs) {
    batch(ts);
    ts += batchSize;
    points += batchSize;
  }
  return points / ((performance.now() - t0) / 1000);
}

async function concurrentWriters(
  url: string,
): Promise<{ recordsPerSec: number; p50: number; p99: number; rssMiB: number }> {
  const times: number[] = [];
  let records = 0;
  let rss = process.memoryUsage().rss;
  const until = performance.now() + ingestMs;
  const t0 = performance.now();
  const writer = async (i: number): Promise<void> => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const key = `bench-${String(i + 1).padStart(3, '0')}`;
    let ts = baseMs;
    while (performance.now() < until) {
      const states = [];
      for (let k = 0; k < batchSize; k++)
        states.push({ channel: `c${k % channelCount}.reported`, value: k, timestamp: (ts + k) / 1000 });
      ts += batchSize;
      const s0 = performance.now();
      await send(agent, `${url}/api/v1/states/write`, 'POST', JSON.stringify({ device: key, states }), `token-${key}`);
      times.push(performance.now() - s0);
      records += batchSize;
      rss = Math.max(rss, process.memoryUsage().rss);
    }
    agent.destroy();
  };
  await Promise.all(Array.from({ length: writers }, (_, i) => writer(i)));
  const recordsPerSec = records / ((performance.now() - t0) / 1000);
  return { recordsPerSec, ...quantiles(times), rssMiB: Number((rss / 1048576).toFixed(1)) };
}

async function httpLatency(agent: Agent, url: string, runs: number): Promise<{ p50: number; p99: number; n: number }> {
  const times: number[] = [];
  let n = 0;
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    n = (JSON.parse(await send(agent, url, 'GET')) as unknown[]).length;
    times.push(performance.now() - t0);
  }
  return { ...quantiles(times), n };
}

function rawLatency(runs: number, query: () => number): { p50: number; p99: number; n: number } {
  const times: number[] = [];
  let n = 0;
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    n = query();
    times.push(performance.now() - t0);
  }
  return { ...quantiles(times), n };
}

async function main(): Promise<void> {
  const worker = new Worker(new URL(import.meta.url));
  const url = await new Promise<string>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  const agent = new Agent({ keepAlive: true, maxSockets: 8 });
  const db = new Database(':memory:');
  db.exec(`CREATE TABLE m (device TEXT NOT NULL, name TEXT NOT NULL, ts INTEGER NOT NULL, tag TEXT NOT NULL, v,
           PRIMARY KEY (device, name, ts)) WITHOUT ROWID`);
  try {
    const ingestRate = await ingest(agent, url);
    const rawRate = rawIngest(db);
    const ratio = ingestRate / rawRate;
    console.log(
      `measurements/write ingest: ${ingestRate.toFixed(0)} points/s (HTTP, batches of ${batchSize}, 4 lanes)`,
    );
    console.log(`raw better-sqlite3 insert of the same rows: ${rawRate.toFixed(0)} points/s`);
    console.log(`ratio service/raw: ${ratio.toFixed(3)} (aim >= 0.5)`);

    const cw = await concurrentWriters(url);
    console.log(
      `${writers} concurrent writers (own device and token each): ${cw.recordsPerSec.toFixed(0)} records/s, ` +
        `request p50 ${cw.p50} ms, p99 ${cw.p99} ms, peak RSS ${cw.rssMiB} MiB (service and client in one process)`,
    );

    // One channel-hour of 1 Hz data, in the service over HTTP and in the peer.
    const now = Date.now();
    const hour = Array.from({ length: 3600 }, (_, i) => ({ ts: now - 3600_000 + i * 1000, value: 20 + (i % 10) }));
    for (let s = 0; s < 3600; s += 100) {
      const states = hour
        .slice(s, s + 100)
        .map((p) => ({ channel: 'temperature.reported', value: p.value, timestamp: p.ts / 1000 }));
      await send(agent, `${url}/api/v1/states/write`, 'POST', JSON.stringify({ device: 'bench-000', states }));
    }
    const put = db.prepare('INSERT OR REPLACE INTO m (device, name, ts, tag, v) VALUES (?, ?, ?, ?, ?)');
    db.transaction(() => hour.forEach((p) => put.run('d-0', 'temperature.reported', p.ts, 'n', p.value)))();
    const windowed = await httpLatency(
      agent,
      `${url}/api/v1/states/read?devices=bench-000&channels=temperature.reported&timeRangeStart=-1h&windowPeriod=1m`,
      200,
    );
    const windowQuery = db
      .prepare(
        `SELECT CAST(ts / 60000 AS INTEGER) AS win, AVG(v), MAX(ts) FROM m
         WHERE device = 'd-0' AND name = 'temperature.reported' AND ts >= ? AND ts < ? GROUP BY win`,
      )
      .raw();
    const rawWindowed = rawLatency(200, () => windowQuery.all(Date.now() - 3600_000, Date.now()).length);
    console.log(
      `windowed states/read, 3600 points -> ${windowed.n} windows: p50 ${windowed.p50} ms, p99 ${windowed.p99} ms ` +
        `(aim p99 < 10 ms); raw query p50 ${rawWindowed.p50} ms, p99 ${rawWindowed.p99} ms`,
    );

    const states = Array.from({ length: channelCount }, (_, i) => ({ channel: `c${i}.reported`, value: i }));
    await send(agent, `${url}/api/v1/states/write`, 'POST', JSON.stringify({ device: 'bench-000', states }));
    db.transaction(() => states.forEach((s, i) => put.run('d-0', s.channel, now, 'n', i)))();
    const last = await httpLatency(agent, `${url}/api/v1/states/read/last?device=bench-000&channels=*.reported`, 200);
    const lastQuery = db
      .prepare(`SELECT name, MAX(ts), tag, v FROM m WHERE device = 'd-0' AND name LIKE '%.reported' GROUP BY name`)
      .raw();
    const rawLast = rawLatency(200, () => lastQuery.all().length);
    console.log(
      `states/read/last across ${last.n} channels: p50 ${last.p50} ms, p99 ${last.p99} ms (aim p99 < 10 ms); ` +
        `raw query (${rawLast.n} rows) p50 ${rawLast.p50} ms, p99 ${rawLast.p99} ms`,
    );

    console.log(
      JSON.stringify({
        ingestPointsPerSec: Math.round(ingestRate),
        rawInsertPointsPerSec: Math.round(rawRate),
        ingestRatio: Number(ratio.toFixed(3)),
        writers,
        writersRecordsPerSec: Math.round(cw.recordsPerSec),
        writersP50Ms: cw.p50,
        writersP99Ms: cw.p99,
        writersPeakRssMiB: cw.rssMiB,
        windowedReadP50Ms: windowed.p50,
        windowedReadP99Ms: windowed.p99,
        rawWindowedP99Ms: rawWindowed.p99,
        readLast1000P50Ms: last.p50,
        readLast1000P99Ms: last.p99,
        rawLast1000P99Ms: rawLast.p99,
      }),
    );
  } finally {
    agent.destroy();
    db.close();
    worker.postMessage('close');
    await new Promise((resolve) => worker.once('exit', resolve));
  }
}

if (!isMainThread) {
  const service = await startService({ fixture: fixture(), dbPath: ':memory:' });
  parentPort?.postMessage(service.url);
  parentPort?.once('message', () => void service.close().then(() => process.exit(0)));
} else {
  await main();
}
