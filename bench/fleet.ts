/**
 * Benchmark of the fleet simulation (host-sim/fleet), measured in one run
 * against the local service, which runs in a child process of its own so that
 * the CPU and memory figures are the fleet process's alone:
 *  1. steady: N devices (default 1000), four channels at a 1 s scan, every
 *     scan reported, for D seconds (default 120); every record read back;
 *  2. outage: the same fleet, the link cut for S seconds (default 30) from
 *     t = 20 s: hub connect attempts per second during and after the outage
 *     against the full-jitter bound (summary.ts), and every queued record
 *     read back.
 * Fair peer, measured in the same run: the way to simulate devices without a
 * fleet, one agent process per device (`npm run agent`, the Node target with
 * the same simulated pins and hub client) on the same service for 15 s; its
 * RSS and CPU (per device, and per record read back; its CPU includes its
 * start-up) against the fleet's are printed as ratios.
 * The machine may be shared: the load average is printed next to the CPU
 * figures. Options: --devices N --duration S --outage S. Last line: JSON.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { generateFleetFixture } from '../host-sim/fleet/generate.js';
import { parseRoster } from '../host-sim/fleet/roster.js';
import { runFleet } from '../host-sim/fleet/run.js';
import type { FleetScenario } from '../host-sim/fleet/scenario.js';
import { TimerWheel } from '../host-sim/fleet/timer-wheel.js';
import { readBack } from '../host-sim/fleet/verify.js';
import { NodeClock } from '../targets/node/clock.js';
import { FetchHttp } from '../targets/node/http.js';
import { NodeWebSocketFactory } from '../targets/node/websocket.js';

const { values } = parseArgs({
  options: {
    devices: { type: 'string', default: '1000' },
    duration: { type: 'string', default: '120' },
    outage: { type: 'string', default: '30' },
  },
});
const devices = Number(values.devices);
const durationS = Number(values.duration);
const outageS = Number(values.outage);
const outageAtS = 20;
const outageRunS = outageAtS + outageS + 70;
const peerS = 15;

const dir = mkdtempSync(join(tmpdir(), 'dds-bench-fleet-'));
const fixturePath = join(dir, 'fleet.json');
const fixture = generateFleetFixture({ devices });
writeFileSync(fixturePath, JSON.stringify(fixture));
const { members } = parseRoster(JSON.stringify(fixture), fixturePath);

/** The local service in a child process; resolves with its URL and the process. */
function startServiceProcess(): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(
    process.execPath,
    [
      'build/host-sim/service/cli.js',
      '--fixture',
      fixturePath,
      '--port',
      '0',
      '--host',
      '127.0.0.1',
      '--db',
      ':memory:',
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  return new Promise((resolve, reject) => {
    let text = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      const url = /on (http:\/\/[0-9.]+:\d+)/.exec(text)?.[1];
      if (url !== undefined) {
        child.stdout?.removeAllListeners('data');
        child.stdout?.resume();
        resolve({ url, child });
      }
    });
    child.once('exit', (code) => reject(new Error(`service exited (${code}) before listening`)));
  });
}

function stopProcess(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

/** RSS (bytes) and CPU seconds of a process, from /proc (Linux). */
function procUsage(pid: number): { rssBytes: number; cpuS: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const rssKb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]); // utime + stime, in clock ticks (100 Hz on Linux)
  return { rssBytes: rssKb * 1024, cpuS: ticks / 100 };
}

async function peer(
  url: string,
): Promise<{ rssMB: number; cpuCores: number; records: number; cpuMsPerRecord: number }> {
  const member = members[0]!;
  const child = spawn(
    process.execPath,
    [
      'build/targets/node/main.js',
      '--service',
      url,
      '--device',
      member.key,
      '--token',
      member.token,
      '--log-level',
      'error',
    ],
    { stdio: ['ignore', 'ignore', 'inherit'] },
  );
  const fromMs = Date.now();
  await new Promise((resolve) => setTimeout(resolve, peerS * 1000));
  const usage = procUsage(child.pid!);
  await stopProcess(child);
  // What the peer delivered, read back like the fleet's records.
  const wait = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
  const back = await readBack(new FetchHttp(), url, member, fromMs - 2000, Date.now(), wait);
  return {
    rssMB: Math.round((usage.rssBytes / 1048576) * 10) / 10,
    cpuCores: Math.round((usage.cpuS / peerS) * 1000) / 1000,
    records: back.stored,
    cpuMsPerRecord: back.stored === 0 ? 0 : Math.round(((usage.cpuS * 1000) / back.stored) * 100) / 100,
  };
}

async function fleetRun(url: string, run: number, scenario: FleetScenario) {
  console.error(`fleet: ${devices} devices for ${run} s${scenario.events.length > 0 ? ' with an outage' : ''} ...`);
  const { figures } = await runFleet({
    service: url,
    members,
    durationS: run,
    scenario,
    clock: new TimerWheel(new NodeClock()),
    http: new FetchHttp(),
    sockets: new NodeWebSocketFactory(),
  });
  return figures;
}

const loadBefore = loadavg()[0]!;
let service = await startServiceProcess();
const single = await peer(service.url);
const steady = await fleetRun(service.url, durationS, { events: [] });
await stopProcess(service.child);
service = await startServiceProcess();
const outage = await fleetRun(service.url, outageRunS, {
  events: [{ at: outageAtS, kind: 'outage', seconds: outageS }],
});
await stopProcess(service.child);
rmSync(dir, { recursive: true, force: true });
const loadAfter = loadavg()[0]!;

const storm = outage.storms[0]!;
const perDeviceCpu = steady.process.cpuCores / devices;
// Per record, not per device: a starved fleet samples fewer scans than scheduled.
const fleetCpuMsPerRecord = (steady.process.cpuS * 1000) / Math.max(1, steady.delivery.reported);
const round = (v: number, d = 1): number => Math.round(v * 10 ** d) / 10 ** d;
console.log(
  `machine load average (1 min): ${round(loadBefore, 2)} before, ${round(loadAfter, 2)} after, on shared cores`,
);
console.log(
  `steady   ${devices} devices x 4 channels, ${durationS} s: ${steady.recordsPerS} records/s, ${steady.requestsPerS} requests/s`,
);
console.log(
  `         delivered exactly once: ${steady.delivery.exactlyOnce} (reported ${steady.delivery.reported}, stored ${steady.delivery.stored}, lost ${steady.delivery.lost}, duplicates ${steady.delivery.duplicates})`,
);
console.log(
  `         sampled ${steady.sampled} of ${devices * 4 * durationS} scheduled scans; event-loop delay p99 ${steady.process.loopDelayMs.p99} ms`,
);
console.log(
  `         latency p50 ${steady.latency.p50Ms} ms, p99 ${steady.latency.p99Ms} ms, max ${steady.latency.maxMs} ms`,
);
console.log(
  `         CPU ${steady.process.cpuCores} cores, RSS ${steady.process.rssMB} MB (${steady.process.rssPerDeviceKB} KB per device)`,
);
console.log(`peer     one agent process per device: RSS ${single.rssMB} MB, CPU ${single.cpuCores} cores`);
console.log(
  `ratio    RSS per device, process / fleet: ${round((single.rssMB * 1024) / steady.process.rssPerDeviceKB)}x`,
);
console.log(`ratio    CPU per device, process / fleet: ${round(single.cpuCores / perDeviceCpu)}x`);
console.log(
  `ratio    CPU per record, process / fleet: ${round(single.cpuMsPerRecord / fleetCpuMsPerRecord)}x ` +
    `(${single.cpuMsPerRecord} ms vs ${round(fleetCpuMsPerRecord, 3)} ms; the process read back ${single.records} records)`,
);
console.log(
  `outage   ${outageS} s: hub connect attempts/s peak ${storm.peakAttemptsPerSDuring} during, ${storm.peakAttemptsPerSAfter} after (bound ${storm.boundPerS}: ${storm.withinBound ? 'within' : 'OVER'})`,
);
console.log(
  `         reconnected ${storm.reconnect.reconnected}/${devices}, p50 ${storm.reconnect.p50Ms} ms, max ${storm.reconnect.maxMs} ms after the outage; exactly once: ${outage.delivery.exactlyOnce}`,
);
console.log(
  JSON.stringify({
    devices,
    durationS,
    loadAverage: { before: round(loadBefore, 2), after: round(loadAfter, 2) },
    steady: {
      recordsPerS: steady.recordsPerS,
      requestsPerS: steady.requestsPerS,
      sampled: steady.sampled,
      scheduledScans: devices * 4 * durationS,
      delivery: steady.delivery,
      latency: steady.latency,
      cpuCores: steady.process.cpuCores,
      cpuMsPerRecord: round(fleetCpuMsPerRecord, 3),
      rssMB: steady.process.rssMB,
      rssPerDeviceKB: steady.process.rssPerDeviceKB,
      heapPerDeviceKB: steady.process.heapPerDeviceKB,
      loopDelayMs: steady.process.loopDelayMs,
      errors: steady.errors,
    },
    peer: single,
    ratios: {
      rssPerDeviceProcessOverFleet: round((single.rssMB * 1024) / steady.process.rssPerDeviceKB),
      cpuPerDeviceProcessOverFleet: round(single.cpuCores / perDeviceCpu),
      cpuPerRecordProcessOverFleet: round(single.cpuMsPerRecord / fleetCpuMsPerRecord),
    },
    outage: { runS: outageRunS, ...storm, delivery: outage.delivery },
  }),
);
