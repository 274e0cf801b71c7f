/**
 * Case 5 of `bench:service`: the fair-share scenario (flood.ts: one token floods
 * property and state writes at its budget, the documented defaults, while
 * another device reads; aim: the reader's p99 < 10 ms) against its own
 * service worker with the documented limits and a database file in a scratch
 * folder (for its growth), then printed with the ratio to the quiet reader.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServiceWorker } from './http.js';
import { floodTarget, runFlood, type FloodFigures } from './flood.js';
import type { ThreadFigures } from './probe.js';

/** Each phase's length, quiet and flooded: about 430 reads each, so that the p99 is the fifth slowest, not the third. */
export const phaseMs = 10_000;

export async function fairShare(entry: URL): Promise<FloodFigures> {
  const dir = mkdtempSync(join(tmpdir(), 'dds-fair-'));
  const dbPath = join(dir, 'fair.db');
  const service = await startServiceWorker(entry, { dbPath });
  try {
    const probe = { start: () => service.probeStart(), stop: () => service.probeStop() };
    return await runFlood(floodTarget(service.url, dbPath, probe), phaseMs);
  } finally {
    await service.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

export function printFairShare(f: FloodFigures): void {
  console.log(
    `fair share: one token floods properties/set and states/write at its budget (${f.flooderOk} answered 200, ` +
      `${f.flooder429} answered 429, ${f.flooderOther} other) while another device reads states/read/last`,
  );
  console.log(
    `  reader p50 ${f.flooded.p50} ms, p99 ${f.flooded.p99} ms over ${f.flooded.reads} reads (aim p99 < 10 ms); quiet ` +
      `reader p50 ${f.quiet.p50} ms, p99 ${f.quiet.p99} ms; ratio flooded/quiet p99 ${f.p99Ratio}`,
  );
  console.log(
    `  flooded reads beside an accepted write of the flooder: ${f.besideWrite.reads}, p50 ${f.besideWrite.p50} ms, ` +
      `p99 ${f.besideWrite.p99} ms; the others: ${f.apart.reads}, p50 ${f.apart.p50} ms, p99 ${f.apart.p99} ms`,
  );
  for (const [phase, th] of [
    ['quiet', f.quietThreads],
    ['flooded', f.floodedThreads],
  ] as const) {
    const line = (name: string, x: ThreadFigures): string =>
      `${name} loop delay p50 ${x.loopP50Ms} / p99 ${x.loopP99Ms} / max ${x.loopMaxMs} ms, ` +
      `${x.gcCount} collections (longest ${x.gcMaxMs} ms, ${x.gcTotalMs} ms in all), ` +
      `CPU ${x.cpuMs ?? 'n/a'} ms, waiting for a core ${x.coreWaitMs ?? 'n/a'} ms`;
    const reads = phase === 'quiet' ? f.quiet.reads : f.flooded.reads;
    const perRead =
      th.reader.coreWaitMs === undefined ? '' : ` (${(th.reader.coreWaitMs / reads).toFixed(2)} ms a read)`;
    console.log(
      `  ${phase}: ${phase === 'quiet' ? f.slowQuiet : f.slowFlooded} reads over 10 ms; ${line('reader thread', th.reader)}` +
        perRead +
        (th.service === undefined ? '' : `; ${line('service thread', th.service)}`),
    );
  }
  console.log(
    `  growth during the flood: RSS ${f.rssGrowthMiB} MiB (quota 64 MiB), database ${f.dbGrowthMiB} MiB ` +
      `(quota ${f.dbQuotaMiB} MiB: ${f.acceptedStates} accepted states x 256 B + the property rows + the WAL to its bound)`,
  );
}

/** The figures of the bench's last line. */
export function fairShareFigures(f: FloodFigures): Record<string, number> {
  return {
    fairShareQuietReaderP99Ms: f.quiet.p99,
    fairShareFloodedReaderP99Ms: f.flooded.p99,
    fairShareReaderP99Ratio: f.p99Ratio,
    fairShareFlooderOk: f.flooderOk,
    fairShareFlooder429: f.flooder429,
    fairShareRssGrowthMiB: f.rssGrowthMiB,
    fairShareDbGrowthMiB: f.dbGrowthMiB,
    fairShareDbQuotaMiB: f.dbQuotaMiB,
    fairShareQuietReaderP50Ms: f.quiet.p50,
    fairShareFloodedReaderP50Ms: f.flooded.p50,
    fairShareFloodedSlowReads: f.slowFlooded,
    fairShareReadsBesideWrite: f.besideWrite.reads,
    fairShareReadsBesideWriteP99Ms: f.besideWrite.p99,
    fairShareReadsApartP99Ms: f.apart.p99,
    fairShareFloodedReads: f.flooded.reads,
    ...threadFigures('ServiceThread', f.floodedThreads.service),
    ...threadFigures('ReaderThread', f.floodedThreads.reader),
  };
}

/** The flooded phase's figures of one thread, named `fairShareFlooded<name>...`. */
function threadFigures(name: string, x: ThreadFigures | undefined): Record<string, number> {
  if (x === undefined) return {};
  const out: Record<string, number> = {
    [`fairShareFlooded${name}LoopDelayP99Ms`]: x.loopP99Ms,
    [`fairShareFlooded${name}GcMaxMs`]: x.gcMaxMs,
  };
  if (x.cpuMs !== undefined) out[`fairShareFlooded${name}CpuMs`] = x.cpuMs;
  if (x.coreWaitMs !== undefined) out[`fairShareFlooded${name}CoreWaitMs`] = x.coreWaitMs;
  return out;
}
