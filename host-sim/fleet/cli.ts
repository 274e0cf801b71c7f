/**
 * `npm run fleet -- --service URL [--tokens FILE] [--devices N] [--product UID]
 * [--scenario FILE] [--duration S] [--shard I/M] [--ramp S] [--drain S] [--batch-ms MS]
 * [--summary FILE] [--quiet]`: a fleet of simulated devices against any
 * Device Data Service; `npm run fleet -- --generate N [--out FILE]` writes a
 * fixture for the local service; `npm run fleet -- --scenario rollout [--devices N]
 * [--image-kb K] [--max-downloads M]` updates a fleet's firmware against a local
 * service of its own (rollout.ts). Prints a live line while running and, as its
 * last line, the JSON figures of the run (summary.ts); exits 1 when a record
 * was lost or stored twice.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { readCommandLine, runCommand, UsageError } from '../command-line.js';
import { FetchHttp } from '../../targets/node/http.js';
import { NodeWebSocketFactory } from '../../targets/node/websocket.js';
import { NodeClock } from '../../targets/node/clock.js';
import type { Fleet } from './fleet.js';
import { generateFleetFixture } from './generate.js';
import { runFleet } from './run.js';
import { runRollout } from './rollout.js';
import { parseRoster } from './roster.js';
import { parseFleetScenario } from './scenario.js';
import { parseShard, shardSlice, wholeFleet } from './shard.js';
import { TimerWheel } from './timer-wheel.js';

const usage = `usage: npm run fleet -- --service URL --tokens FILE [--devices N] [--product UID] [--scenario FILE]
                        [--duration S] [--shard I/M] [--ramp S] [--drain S] [--batch-ms MS] [--summary FILE] [--quiet]
       npm run fleet -- --generate N [--out FILE] [--scan-ms MS]
       npm run fleet -- --scenario rollout [--devices N] [--image-kb K] [--max-downloads M] [--duration S]
A fleet of simulated devices (real agents, one process) against a Device Data Service: a live line on a terminal,
then every record read back; the last line is the run's figures as JSON; exit 1 when a record was lost or doubled.
  --service   base URL of the Device Data Service
  --tokens    devices and tokens: a fixture (JSON, decisions.md section 7) or a CSV of key,token
  --devices   simulate the first N devices of the file (default: all)
  --product   fixture only: the devices of this product uid
  --scenario  events (outage, broadcast, churn) at seconds into the run; JSON or YAML (docs/fleet.md)
  --duration  seconds of sampling (default 60), then the outboxes drain and every record is read back
  --shard     I/M: run the I-th (0-based) of M equal slices of the device list
  --ramp      seconds over which the devices start (default N/100)
  --drain     longest wait for the outboxes to empty after the run, s (default 120)
  --batch-ms  the agents' batch window, ms (default the agent's, 1000): fewer, larger requests
  --summary   write the full summary (per-device figures included) to this file
  --quiet     no live line
  --generate  write a fixture of N devices with a token each (and an admin token) to --out
  --out       default fleet-fixture.json
  rollout     a firmware update of N devices (default 1000) against a local service of its own: a signed
              image of K KiB (default 128), at most M downloads at once (default 16), sampling until every
              device is settled or S seconds (default 600); docs/fleet.md`;

function positive(name: string, text: string | undefined, fallback: number, integer = false): number {
  if (text === undefined) return fallback;
  const v = Number(text);
  if (!Number.isFinite(v) || v < 0 || (integer && !Number.isInteger(v))) {
    throw new UsageError(`--${name}: expected a ${integer ? 'whole ' : ''}number >= 0, got "${text}"`);
  }
  return v;
}

/** The live line: devices running and online, hub sockets, records and requests in the last second, outbox, errors. */
function progressLine(fleet: Fleet, second: number): string {
  let running = 0;
  let online = 0;
  let queued = 0;
  for (const device of fleet.devices) {
    if (!device.running) continue;
    running++;
    if (device.hubState === 'connected') online++;
    queued += device.counters().queued;
  }
  const { link } = fleet;
  const errors = [...link.errors]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 3)
    .map(([kind, n]) => `${kind}: ${n}`)
    .join(', ');
  return (
    `t=${second}s devices ${running}/${fleet.devices.length} online ${online} hub sockets ${link.openSockets}` +
    ` records/s ${link.records.at(second - 1)} requests/s ${link.requests.at(second - 1)} outbox ${queued}` +
    (link.isDown ? ' [OUTAGE]' : '') +
    (link.refusals.rateLimited + link.refusals.unavailable === 0
      ? ''
      : ` 429 ${link.refusals.rateLimited} 503 ${link.refusals.unavailable}`) +
    (errors === '' ? '' : ` errors {${errors}}`)
  );
}

/** A file the options name; a runtime failure naming the option and the path when it cannot be read. */
function readInput(flag: string, path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (e) {
    throw new Error(`${flag} ${path}: ${(e as NodeJS.ErrnoException).code ?? String(e)}`);
  }
}

async function main(): Promise<number> {
  const { values } = readCommandLine(process.argv.slice(2), {
    service: { type: 'string' },
    tokens: { type: 'string' },
    devices: { type: 'string' },
    product: { type: 'string' },
    scenario: { type: 'string' },
    duration: { type: 'string' },
    shard: { type: 'string' },
    ramp: { type: 'string' },
    drain: { type: 'string' },
    'batch-ms': { type: 'string' },
    summary: { type: 'string' },
    quiet: { type: 'boolean', default: false },
    generate: { type: 'string' },
    out: { type: 'string', default: 'fleet-fixture.json' },
    'scan-ms': { type: 'string' },
    'image-kb': { type: 'string' },
    'max-downloads': { type: 'string' },
    help: { type: 'boolean', short: 'h', default: false },
  });
  if (values.help) {
    console.log(usage);
    return 0;
  }
  if (values.generate !== undefined) {
    const devices = positive('generate', values.generate, 0, true);
    const fixture = generateFleetFixture({ devices, scanMs: positive('scan-ms', values['scan-ms'], 1000, true) });
    writeFileSync(values.out, JSON.stringify(fixture, null, 1) + '\n', { mode: 0o600 });
    console.log(`${values.out}: ${devices} devices, each with its own token, and an admin token`);
    console.log(`serve it:  npm run service -- --fixture ${values.out} --db :memory:`);
    console.log(`run it:    npm run fleet -- --service http://127.0.0.1:8080 --tokens ${values.out}`);
    return 0;
  }
  if (values.scenario === 'rollout') return rollout(values);
  if (values.service === undefined || values.tokens === undefined)
    throw new UsageError('--service and --tokens are required');
  const roster = parseRoster(readInput('--tokens', values.tokens), values.tokens, values.product);
  const limit = positive('devices', values.devices, roster.members.length, true);
  if (limit > roster.members.length) {
    throw new Error(`--devices ${limit}: ${values.tokens} has ${roster.members.length} devices with a token`);
  }
  const shard = values.shard === undefined ? wholeFleet : parseShard(values.shard);
  const members = shardSlice(roster.members.slice(0, limit), shard);
  if (members.length === 0) throw new Error('no devices to simulate in this shard');
  const scenario =
    values.scenario === undefined
      ? { events: [] }
      : parseFleetScenario(readInput('--scenario', values.scenario), /\.ya?ml$/i.test(values.scenario));
  const durationS = positive('duration', values.duration, 60);
  const live = !values.quiet;
  const tty = process.stderr.isTTY;
  const { figures, perDevice } = await runFleet({
    service: values.service.replace(/\/+$/, ''),
    members,
    durationS,
    scenario,
    clock: new TimerWheel(new NodeClock()),
    http: new FetchHttp(),
    sockets: new NodeWebSocketFactory(),
    ...(values.ramp === undefined ? {} : { rampS: positive('ramp', values.ramp, 0) }),
    ...(values.drain === undefined ? {} : { drainS: positive('drain', values.drain, 120) }),
    ...(values['batch-ms'] === undefined
      ? {}
      : { agent: { batch: { maxAgeMs: Math.max(1, positive('batch-ms', values['batch-ms'], 1000)) } } }),
    onTick: (fleet, second) => {
      if (!live || (!tty && second % 10 !== 0)) return;
      const line = progressLine(fleet, second);
      process.stderr.write(tty ? `\r\x1b[2K${line}` : `${line}\n`);
    },
  });
  if (live && tty) process.stderr.write('\n');
  const shardText = `${shard.index}/${shard.count}`;
  if (values.summary !== undefined) {
    writeFileSync(values.summary, JSON.stringify({ shard: shardText, ...figures, perDevice }, null, 1) + '\n');
  }
  console.log(JSON.stringify({ shard: shardText, ...figures }));
  return figures.delivery.exactlyOnce ? 0 : 1;
}

/** `--scenario rollout`: its own service and fleet; exits 1 unless every device settled and no record was lost. */
async function rollout(values: Record<string, string | boolean | undefined>): Promise<number> {
  for (const o of ['service', 'tokens', 'shard', 'product'] as const)
    if (values[o] !== undefined) throw new UsageError(`--${o}: the rollout runs against a local service of its own`);
  const str = (name: string): string | undefined => (typeof values[name] === 'string' ? values[name] : undefined);
  const maxDownloads = positive('max-downloads', str('max-downloads'), 16, true);
  if (maxDownloads < 1) throw new UsageError('--max-downloads: expected at least 1');
  const live = values['quiet'] !== true;
  const tty = process.stderr.isTTY;
  const result = await runRollout({
    devices: positive('devices', str('devices'), 1000, true),
    imageBytes: Math.round(positive('image-kb', str('image-kb'), 128) * 1024),
    atS: 5,
    durationS: positive('duration', str('duration'), 600),
    maxDownloads,
    clock: new TimerWheel(new NodeClock()),
    http: new FetchHttp(),
    sockets: new NodeWebSocketFactory(),
    ...(str('ramp') === undefined ? {} : { rampS: positive('ramp', str('ramp'), 0) }),
    ...(str('drain') === undefined ? {} : { drainS: positive('drain', str('drain'), 120) }),
    onTick: (fleet, second) => {
      if (!live || (!tty && second % 10 !== 0)) return;
      const states = new Map<string, number>();
      for (const d of fleet.devices) {
        const s = (d.updater?.status ?? 'not running').replace(/ \d+%$/, '');
        states.set(s, (states.get(s) ?? 0) + 1);
      }
      const line = `${progressLine(fleet, second)} firmware {${[...states].map(([k, n]) => `${k}: ${n}`).join(', ')}}`;
      process.stderr.write(tty ? `\r\x1b[2K${line}` : `${line}\n`);
    },
  });
  if (live && tty) process.stderr.write('\n');
  const { figures, perDevice, rollout: r } = result;
  if (typeof values['summary'] === 'string')
    writeFileSync(values['summary'], JSON.stringify({ rollout: r, ...figures, perDevice }, null, 1) + '\n');
  console.log(JSON.stringify({ rollout: r, ...figures }));
  return figures.delivery.exactlyOnce && r.unsettled === 0 ? 0 : 1;
}

runCommand({ name: 'npm run fleet --', prefix: 'fleet' }, () => main().then((code) => process.exit(code)));
