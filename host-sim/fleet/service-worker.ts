/**
 * The local service in a worker thread, for the rollout (rollout.ts): its
 * own event loop and thread, as the fleet figures of docs/fleet.md have the
 * service in a process of its own, so a thousand agents in the fleet's thread
 * do not starve it (and it does not starve them). The same module is the
 * worker's entry (it starts the service from `workerData`) and the parent's
 * handle (`startServiceWorker`): its URL, the download counters, close.
 */
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import type { DownloadStats, ServiceOptions } from '../service/index.js';

type Reply = { url: string } | { stats: DownloadStats } | { closed: true } | { error: string };

export interface ServiceWorker {
  url: string;
  /** The service's download counters (slots held, peak, served, refused). */
  downloads(): Promise<DownloadStats>;
  close(): Promise<void>;
}

/** Starts the service (serialisable options: a fixture object, no clock or callbacks) in a worker thread. */
export function startServiceWorker(
  options: Omit<ServiceOptions, 'now' | 'log' | 'logError' | 'fallback'>,
): Promise<ServiceWorker> {
  const worker = new Worker(new URL(import.meta.url), { workerData: options });
  const next = (): Promise<Reply> =>
    new Promise((resolve, reject) => {
      const onError = (e: Error): void => reject(e);
      worker.once('error', onError);
      worker.once('message', (m: Reply) => {
        worker.off('error', onError);
        resolve(m);
      });
    });
  return next().then((first) => {
    if ('error' in first) throw new Error(`service worker: ${first.error}`);
    if (!('url' in first)) throw new Error('service worker: no URL');
    return {
      url: first.url,
      async downloads() {
        const answer = next();
        worker.postMessage('stats');
        const m = await answer;
        if (!('stats' in m)) throw new Error('service worker: no stats');
        return m.stats;
      },
      async close() {
        const answer = next();
        worker.postMessage('close');
        await answer;
        await worker.terminate();
      },
    };
  });
}

async function serve(port: NonNullable<typeof parentPort>): Promise<void> {
  const { startService } = await import('../service/index.js');
  try {
    const service = await startService(workerData as ServiceOptions);
    port.on('message', (m: unknown) => {
      if (m === 'stats') port.postMessage({ stats: service.downloads.snapshot() });
      else if (m === 'close') void service.close().then(() => port.postMessage({ closed: true }));
    });
    port.postMessage({ url: service.url });
  } catch (e) {
    port.postMessage({ error: e instanceof Error ? e.message : String(e) });
  }
}

if (!isMainThread && parentPort !== null) void serve(parentPort);
