/**
 * The rollout scenario (`npm run fleet -- --scenario rollout`, docs/fleet.md):
 * a firmware update of the whole simulated fleet, end to end. It makes a
 * signing key and a real image file of random bytes, signs it (the same code
 * as `npm run firmware -- sign`), starts the local service in a worker thread with
 * a generated fleet fixture and the image's folder (`--firmware`, its download
 * bound), runs the fleet with every device's real updater (src/ota) on
 * simulated boot slots, and at `atS` writes the four desired properties to
 * every device with the admin token. Sampling ends once every device is
 * settled (`confirmed` on the new version, or `failed ...` / `rolled-back`) or
 * at `durationS`; then the outboxes drain and every record is read back.
 * Figures: the download concurrency the service saw against its bound, the
 * time to all confirmed, and each device's final `fw-running`/`fw-status` as the
 * service has them.
 */
import { createPublicKey, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fullJitter } from '../../src/retry/backoff.js';
import type { HttpRequest, HttpTransport, WebSocketFactory, Clock } from '../../src/ports.js';
import { nodeImageCheck } from '../../targets/node/ota.js';
import { generateSigningKey, readPrivateKey, signImage } from '../firmware/signing.js';
import { startServiceWorker } from './service-worker.js';
import type { Fleet } from './fleet.js';
import { generateFleetFixture } from './generate.js';
import { parseRoster } from './roster.js';
import { runFleet } from './run.js';

export interface RolloutOptions {
  devices: number;
  /** Size of the image, bytes. */
  imageBytes: number;
  /** Seconds into the run at which the update is set. */
  atS: number;
  /** Longest sampling, s (the run ends earlier once every device settled). */
  durationS: number;
  /** The service's bound on concurrent downloads. */
  maxDownloads: number;
  clock: Clock;
  http: HttpTransport;
  sockets: WebSocketFactory;
  rampS?: number;
  drainS?: number;
  /** The new image's trial, ms. Default 300000, the board's default (`fwTrialS`). */
  trialMs?: number;
  /** The first N devices get a `fw-sig` by another key (each must end `failed EKEYREJECTED`). Default 0. */
  wrongKeyDevices?: number;
  onTick?: (fleet: Fleet, second: number) => void;
}

export const fromVersion = '1.0.0';
/** The back-off of the operator's requests that the service refused for now (retried()). */
const writeRetry = fullJitter(1000, 8000);
export const toVersion = '2.0.0';

/** Settled: confirmed on the new version, or an end that names why. */
function settled(status: string, version: string): boolean {
  return (status === 'confirmed' && version === toVersion) || status.startsWith('failed') || status === 'rolled-back';
}

export async function runRollout(o: RolloutOptions) {
  const dir = mkdtempSync(join(tmpdir(), 'dds-rollout-'));
  const image = join(dir, `board-${toVersion}.bin`);
  writeFileSync(image, randomBytes(o.imageBytes));
  const pair = generateSigningKey();
  const fixture = generateFleetFixture({ devices: o.devices });
  const admin = fixture.tokens.find((t) => t.role === 'admin')?.token ?? '';
  const service = await startServiceWorker({ fixture, firmware: { dir, maxDownloads: o.maxDownloads } });
  try {
    const { properties } = await signImage({
      image,
      key: readPrivateKey(pair.privatePem, 'rollout key'),
      version: toVersion,
      url: `${service.url}/firmware/board-${toVersion}.bin`,
    });
    const other = await signImage({
      image,
      key: readPrivateKey(generateSigningKey().privatePem, 'another key'),
      version: toVersion,
      url: properties['fw-url'],
    });
    const { members } = parseRoster(JSON.stringify(fixture), 'fixture');
    const set = {
      started: false,
      startMs: 0,
      written: 0,
      writeErrors: 0,
      writeRetries: 0,
      allConfirmedMs: undefined as number | undefined,
    };
    // An operator's write: tried again while the service may yet accept it (retried()), at most 8 times.
    const writeUpdate = async (device: string, values: object): Promise<boolean> => {
      const request = {
        method: 'POST' as const,
        url: `${service.url}/api/v1/properties/set`,
        headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
        body: JSON.stringify({ device, values }),
      };
      const r = await retried(o.http, o.clock, request, 8, () => set.writeRetries++);
      return r.status === 200;
    };
    const setUpdate = async (fleet: Fleet): Promise<void> => {
      set.started = true;
      set.startMs = o.clock.monotonicMs();
      let next = 0;
      const worker = async (): Promise<void> => {
        while (next < fleet.devices.length) {
          const wrongKey = next < (o.wrongKeyDevices ?? 0);
          const { member } = fleet.devices[next++]!;
          const values = wrongKey ? other.properties : properties;
          if (await writeUpdate(member.key, values)) set.written++;
          else set.writeErrors++;
        }
      };
      await Promise.all(Array.from({ length: 16 }, worker));
    };
    const allSettled = (fleet: Fleet): boolean => {
      if (!set.started || set.written + set.writeErrors < fleet.devices.length) return false;
      const states = fleet.devices.map((d) => [d.updater?.status ?? '', d.slots?.version ?? ''] as const);
      if (set.allConfirmedMs === undefined && states.every(([s, v]) => s === 'confirmed' && v === toVersion))
        set.allConfirmedMs = o.clock.monotonicMs();
      return states.every(([s, v]) => settled(s, v));
    };
    const key = createPublicKey(pair.publicPem);
    const run = await runFleet({
      service: service.url,
      members,
      durationS: o.durationS,
      scenario: { events: [] },
      clock: o.clock,
      http: o.http,
      sockets: o.sockets,
      ...(o.rampS === undefined ? {} : { rampS: o.rampS }),
      ...(o.drainS === undefined ? {} : { drainS: o.drainS }),
      updates: {
        version: fromVersion,
        identify: (sha) => (sha === properties['fw-sha256'] ? toVersion : undefined),
        check: nodeImageCheck(key),
        retry: fullJitter(1000, 8000),
        trialMs: o.trialMs ?? 300_000,
      },
      until: allSettled,
      onTick: (fleet, second) => {
        if (second === o.atS) void setUpdate(fleet);
        o.onTick?.(fleet, second);
      },
    });
    const ends = await finalStates(
      o.http,
      o.clock,
      service.url,
      admin,
      members.map((m) => m.key),
    );
    const downloads = await service.downloads();
    const restarts = run.fleet.devices.reduce((n, d) => n + d.updateRestarts, 0);
    const rollout = {
      devices: o.devices,
      imageBytes: o.imageBytes,
      written: set.written,
      writeErrors: set.writeErrors,
      writeRetries: set.writeRetries,
      confirmed: ends.filter((e) => e.status === 'confirmed' && e.running === toVersion).length,
      /** Devices whose final status is neither confirmed on the new version nor a named failure. */
      unsettled: ends.filter((e) => !settled(e.status, e.running)).length,
      /** Final statuses other than confirmed on the new version, with how many devices ended so. */
      others: tally(ends.filter((e) => !(e.status === 'confirmed' && e.running === toVersion))),
      allConfirmedS:
        set.allConfirmedMs === undefined ? null : Math.round((set.allConfirmedMs - set.startMs) / 100) / 10,
      downloads: {
        bound: o.maxDownloads,
        peak: downloads.peak,
        served: downloads.served,
        refused503: downloads.refused,
      },
      restarts,
      bytesWritten: run.fleet.devices.reduce((n, d) => n + (d.slots?.writtenBytes ?? 0), 0),
    };
    return { ...run, rollout };
  } finally {
    await service.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

function tally(ends: { running: string; status: string }[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const e of ends)
    out[`${e.running} ${e.status || '(none)'}`] = (out[`${e.running} ${e.status || '(none)'}`] ?? 0) + 1;
  return out;
}

/** What an answer the service may yet turn into a 200 is: none at all, 408, 429 or a 5xx. */
const passing = (status: number): boolean => status === 0 || status === 408 || status === 429 || status >= 500;

/**
 * An admin request as an operator's tool makes it: a passing refusal is tried again after a jittered wait of
 * 1 to 8 s, at least its `Retry-After`, up to `attempts` times (`onRetry` counts them); the last answer (status
 * 0 for none) is returned.
 */
async function retried(
  http: HttpTransport,
  clock: Clock,
  request: HttpRequest,
  attempts: number,
  onRetry: () => void = () => undefined,
): Promise<{ status: number; body?: string }> {
  for (let attempt = 1; ; attempt++) {
    const r = await http.request(request).catch(() => ({ status: 0, headers: {} as Record<string, string> }));
    if (r.status === 200 || !passing(r.status) || attempt >= attempts) return r;
    onRetry();
    const afterMs = Number(r.headers?.['retry-after'] ?? 0) * 1000 || 0;
    await new Promise<void>((resolve) =>
      clock.setTimer(resolve, Math.max(afterMs, writeRetry.nextDelayMs(attempt) ?? 1000)),
    );
  }
}

/**
 * Each device's fw-running and fw-status as the service has them (what an operator sees), read one by one by
 * the admin token within its request budget (retried()); an answer other than 200 stops the run naming the
 * device and the status, never taken as an empty state.
 */
async function finalStates(http: HttpTransport, clock: Clock, service: string, admin: string, keys: string[]) {
  const out: { key: string; running: string; status: string }[] = [];
  for (const key of keys) {
    const url = `${service}/api/v1/properties/get?device=${encodeURIComponent(key)}`;
    const r = await retried(http, clock, { method: 'GET', url, headers: { authorization: `Bearer ${admin}` } }, 20);
    if (r.status !== 200) throw new Error(`rollout: the final state of ${key} not read: HTTP ${r.status}`);
    const p = JSON.parse(r.body ?? '{}') as Record<string, unknown>;
    out.push({ key, running: String(p['fw-running'] ?? ''), status: String(p['fw-status'] ?? '') });
  }
  return out;
}
