/**
 * The flooder of the fair-share case (flood.ts), in a worker thread of its
 * own: four keep-alive lanes post `properties/set` (a string at the property
 * limit) and `states/write` (100 states) in turn, each as soon as the last
 * answer came, ignoring `Retry-After`, until told to stop; then it reports its
 * answers by status. Apart from the reader, so that the reader's latency is
 * taken on an idle event loop: on one thread, the reader's answer waited
 * behind the flooder's own requests and answers (about 2,000 refusals a
 * second) and behind the collections of the flooder's garbage, time the
 * service never spent.
 */
import { Agent, request } from 'node:http';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { defaultLimits } from '../../host-sim/service/limits.js';
import { Paths } from '../../src/wire.js';

/** What the flooder's worker is given. */
export interface FlooderSetup {
  url: string;
  key: string;
  token: string;
  lanes: number;
}

/** A request on the time line every thread shares (`performance.timeOrigin` + `now()`, ms): start, end, status. */
export type Span = [startMs: number, endMs: number, status: number];

/** `performance.now()` on the time line every thread shares. */
export const sharedNow = (): number => performance.timeOrigin + performance.now();

export interface FlooderCounts {
  /** Every request of the flood (the reader's slow reads are matched against the accepted writes). */
  spans: Span[];
  ok: number;
  limited: number;
  other: number;
  /** States of the accepted `states/write` requests. */
  states: number;
}

/** One request: its status and wall-clock ms. */
export function call(
  agent: Agent,
  url: string,
  method: string,
  token: string,
  body?: string,
): Promise<{ status: number; ms: number }> {
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method, agent, headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' } },
      (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0, ms: performance.now() - t0 }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** The flood itself, until `stopped()`; its answers by status. */
async function flood(s: FlooderSetup, stopped: () => boolean): Promise<FlooderCounts> {
  const agent = new Agent({ keepAlive: true, maxSockets: s.lanes });
  const counts: FlooderCounts = { spans: [], ok: 0, limited: 0, other: 0, states: 0 };
  let n = 0;
  const lane = async (): Promise<void> => {
    while (!stopped()) {
      const i = n++;
      const [path, body, states] =
        i % 2 === 0
          ? [
              Paths.propertiesSet,
              { device: s.key, values: { note: `${i % 10}`.repeat(defaultLimits.maxPropertyBytes) } },
              0,
            ]
          : [
              Paths.statesWrite,
              {
                device: s.key,
                states: Array.from({ length: 100 }, (_, k) => ({ channel: `c${k}.reported`, value: i })),
              },
              100,
            ];
      const startMs = sharedNow();
      const r = await call(agent, s.url + path, 'POST', s.token, JSON.stringify(body));
      counts.spans.push([startMs, sharedNow(), r.status]);
      if (r.status === 200) {
        counts.ok++;
        counts.states += states;
      } else if (r.status === 429) counts.limited++;
      else counts.other++;
    }
  };
  try {
    await Promise.all(Array.from({ length: s.lanes }, lane));
  } finally {
    agent.destroy();
  }
  return counts;
}

/**
 * Starts the flooder's worker and resolves once it is loaded and waiting (its start-up, a thread and its
 * modules compiled, is no part of the flood: it took a core from the service during the first reads);
 * `go()` starts the flood; `stop()` ends it and resolves with its counts once every lane has its answer.
 */
export async function startFlooder(setup: FlooderSetup): Promise<{ go(): void; stop(): Promise<FlooderCounts> }> {
  const worker = new Worker(new URL(import.meta.url), { workerData: setup });
  const messages: ((m: unknown) => void)[] = [];
  const next = new Promise<unknown>((resolve) => messages.push(resolve));
  const done = new Promise<FlooderCounts>((resolve, reject) => {
    messages.push((m) => resolve(m as FlooderCounts));
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the flooder's worker exited (${code}) without its counts`)));
  });
  worker.on('message', (m) => messages.shift()?.(m));
  await Promise.race([next, done]);
  return {
    go: () => worker.postMessage('go'),
    async stop() {
      worker.postMessage('stop');
      try {
        return await done;
      } finally {
        await worker.terminate();
      }
    },
  };
}

if (!isMainThread && (workerData as Partial<FlooderSetup> | null)?.lanes !== undefined) {
  let stop = false;
  const told = (): Promise<unknown> => new Promise((resolve) => parentPort?.once('message', resolve));
  parentPort?.postMessage('ready');
  await told();
  void told().then(() => (stop = true));
  parentPort?.postMessage(await flood(workerData as FlooderSetup, () => stop));
}
