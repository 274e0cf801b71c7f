/**
 * The HTTP side of `bench:service`: the bench fixture (one product of 1,001
 * channels, 17 devices with a device token each, an admin token), the service
 * started in a worker thread on `:memory:` storage, and a keep-alive client.
 */
import { Agent, request } from 'node:http';
import { parentPort, Worker, workerData } from 'node:worker_threads';
import { startService, type Fixture, type ServiceLimits } from '../../host-sim/service/index.js';
import { ThreadProbe, type ThreadFigures } from './probe.js';
import { threadSched, type Sched } from './sched.js';

export const adminToken = 'bench-admin';
export const channelCount = 1000;
export const writers = 16;

/** The device key of device `i` (0 is read and ingested into; 1..writers are the concurrent writers). */
export const deviceKey = (i: number): string => `bench-${String(i).padStart(3, '0')}`;

export function benchFixture(): Fixture {
  const channels = [{ uid: 'c-temp', key: 'temperature', type: 'custom', aggregated: 'mean' }];
  for (let i = 0; i < channelCount; i++)
    channels.push({ uid: `c-${i}`, key: `c${i}`, type: 'custom', aggregated: 'last' });
  const devices = Array.from({ length: writers + 1 }, (_, i) => ({
    uid: `d-${i}`,
    key: deviceKey(i),
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
      { token: adminToken, role: 'admin' },
      ...devices.map((d) => ({ token: `token-${d.key}`, role: 'device' as const, device: d.uid })),
    ],
  };
}

/** One request; resolves with the body of a 200, rejects otherwise. */
export function send(agent: Agent, url: string, method: string, body?: string, bearer = adminToken): Promise<string> {
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

export interface ServiceWorker {
  url: string;
  /** The service thread's scheduler figures now. */
  sched(): Promise<Sched | undefined>;
  /** Starts probing the service thread's event loop and collections (probe.ts). */
  probeStart(): void;
  /** The service thread's figures since `probeStart`. */
  probeStop(): Promise<ThreadFigures>;
  stop(): Promise<void>;
}

/** How the worker's service runs: its limits (default: the documented ones) and database (default `:memory:`). */
export interface WorkerSetup {
  limits?: Partial<ServiceLimits>;
  dbPath?: string;
}

/**
 * The throughput cases measure storage and HTTP, not the budget: one token there sends hundreds of
 * requests a second, so they run with the request budget lifted. The fair-share case runs the defaults.
 */
export const unbudgeted: WorkerSetup = { limits: { ratePerSecond: 1e9, burst: 1e9 } };

/** Starts `entry` (this bench's main module) as the service's worker; see `serveInWorker`. */
export async function startServiceWorker(entry: URL, setup: WorkerSetup = {}): Promise<ServiceWorker> {
  const worker = new Worker(entry, { workerData: setup });
  const url = await new Promise<string>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  return {
    url,
    sched() {
      return new Promise((resolve) => {
        worker.once('message', (m: Sched | null) => resolve(m ?? undefined));
        worker.postMessage('sched');
      });
    },
    probeStart() {
      worker.postMessage('probe-start');
    },
    probeStop() {
      return new Promise((resolve) => {
        worker.once('message', resolve);
        worker.postMessage('probe-stop');
      });
    },
    async stop() {
      const exited = new Promise((resolve) => worker.once('exit', resolve));
      worker.postMessage('close');
      await exited;
    },
  };
}

/**
 * The worker's side: serves the bench fixture, answers `sched` with its thread's figures, probes its thread
 * between `probe-start` and `probe-stop` (answered with the figures), stops on `close`.
 */
export async function serveInWorker(): Promise<void> {
  const setup = (workerData ?? {}) as WorkerSetup;
  const service = await startService({
    fixture: benchFixture(),
    dbPath: setup.dbPath ?? ':memory:',
    ...(setup.limits === undefined ? {} : { limits: setup.limits }),
  });
  parentPort?.postMessage(service.url);
  const probe = new ThreadProbe();
  parentPort?.on('message', (m) => {
    if (m === 'sched') parentPort?.postMessage(threadSched() ?? null);
    else if (m === 'probe-start') probe.start();
    else if (m === 'probe-stop') parentPort?.postMessage(probe.stop());
    else void service.close().then(() => process.exit(0));
  });
}
