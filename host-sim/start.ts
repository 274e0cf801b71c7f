#!/usr/bin/env node
/**
 * `npm start`: the local Device Data Service with the demo fixture, and one
 * simulated device (demo-001) running the agent on the Node target against
 * it, with the simulator's hardware plugged in, live in the terminal
 * (device/live-view.ts). `q` or Ctrl-C stops it.
 *
 *   npm start -- [--port N] [--scenario FILE] [--store DIR] [--db FILE] [--tls]
 *
 * `--tls`: the service serves HTTPS/WSS with a certificate made at start by
 * host-sim/tls (a fresh self-signed CA for localhost/127.0.0.1), and the
 * device verifies it with that CA (`--ca <work>/ca.pem`).
 *
 * Defaults: port 8080 (a taken port is an error; `--port 0` asks for any), the
 * demo scenario of host-sim/device/scenarios/demo.json, the outbox and the
 * database in a fresh temporary directory, removed at exit.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isAgentError } from '../src/errors.js';
import type { RunningService } from './service/index.js';
import { runCommand, UsageError } from './command-line.js';
import { parseStartArgs, startUsage } from './start-args.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const fixture = join(root, 'host-sim', 'service', 'fixtures', 'demo.json');
const demoScenario = join(root, 'host-sim', 'device', 'scenarios', 'demo.json');

/** The service on the asked port; a taken port or an unusable database is an error naming the option. */
async function listen(
  port: number,
  db: { path: string; given: boolean },
  tls: { cert: string; key: string } | undefined,
): Promise<RunningService> {
  // Loaded after the options are read: `--help` answers without loading the service and the agent.
  const { startService } = await import('./service/index.js');
  try {
    return await startService({
      fixture,
      port,
      host: '127.0.0.1',
      dbPath: db.path,
      ...(tls === undefined ? {} : { tls }),
    });
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code ?? '';
    const message = e instanceof Error ? e.message : String(e);
    if (code === 'EADDRINUSE')
      throw new Error(`--port ${port}: EADDRINUSE, taken by another program (--port 0 picks a free one)`);
    if (db.given && /SQLITE|database/i.test(`${code} ${message}`)) throw new Error(`--db ${db.path}: ${message}`);
    throw e;
  }
}

async function main(): Promise<number> {
  const args = parseStartArgs(process.argv.slice(2));
  if (args.help) {
    process.stdout.write(startUsage + '\n');
    return 0;
  }
  const [{ ConsoleLogger }, { parseDeviceOptions, startSimulatedAgent }, { LiveView }, { generatePki }] =
    await Promise.all([
      import('../targets/node/logger.js'),
      import('./hardware/agent.js'),
      import('./device/live-view.js'),
      import('./tls/pki.js'),
    ]);
  const work = mkdtempSync(join(tmpdir(), 'dds-start-'));
  const cleanUp = (): void => rmSync(work, { recursive: true, force: true });
  process.once('exit', cleanUp);
  const pki = args.tls ? generatePki() : undefined;
  const caPath = join(work, 'ca.pem');
  if (pki !== undefined) writeFileSync(caPath, pki.caPem);
  // The chain (server certificate, then the CA): Moddable's TLS needs the CA sent along (docs/tls.md).
  const tls = pki === undefined ? undefined : { cert: pki.certPem + pki.caPem, key: pki.keyPem };
  const db = { path: args.db ?? join(work, 'dds.db'), given: args.db !== undefined };
  const service = await listen(args.port, db, tls);
  const store = args.store ?? join(work, 'device');
  const options = parseDeviceOptions([
    ...['--service', service.url, '--device', 'demo-001', '--token', 'device-token-demo-001'],
    ...['--store', store, '--scenario', args.scenario ?? demoScenario],
    // The demo's field buses: the simulated Modbus slave and the simulated J1939 engine (host-sim/modbus, can).
    ...['--bus', 'rs485=sim', '--bus', 'can0=j1939-sim'],
    // The demo's GNSS receiver: the simulated receiver driving its built-in route (host-sim/gnss).
    ...['--gnss', 'simulated'],
    ...(pki === undefined ? [] : ['--ca', caPath]),
  ]);
  const header = [
    `Device Data Service ${service.url}  admin token admin-token-demo`,
    `dashboard ${service.url}/  (sign in with admin-token-demo)`,
    'device demo-001 (token device-token-demo-001)',
    ...(pki === undefined ? [] : [`TLS: curl --cacert ${caPath} ...`]),
  ];
  const view = new LiveView(process.stdout, header);
  const warnings: string[] = [];
  const logger = new ConsoleLogger('warn', (line) => {
    warnings.push(line);
    if (warnings.length > 5) warnings.shift();
    view.warned(line);
  });
  const runtime = await startSimulatedAgent(options, {
    logger,
    agent: { onSample: view.sampled, onReport: view.reported, onDesired: view.desired },
  });
  runtime.pins.onWrite(view.written);
  const draw = (): void =>
    view.render({ online: runtime.agent.online, hub: runtime.hub?.status ?? 'off', counters: runtime.agent.counters });
  const timer = setInterval(draw, 1000);
  draw();
  return new Promise<number>((resolve) => {
    const stop = async (): Promise<void> => {
      clearInterval(timer);
      if (process.stdin.isTTY) process.stdin.setRawMode(false);
      process.stdin.pause();
      runtime.stop();
      await service.close();
      view.close();
      process.stdout.write(`stopped; last warnings:\n${warnings.join('\n') || '(none)'}\n`);
      resolve(0);
    };
    process.once('SIGINT', () => void stop());
    process.once('SIGTERM', () => void stop());
    if (process.stdin.isTTY) {
      process.stdin.setRawMode(true);
      process.stdin.on('data', (key: Buffer) => {
        // q, Q or Ctrl-C (raw mode delivers it as a byte, not a signal).
        if (key.includes(0x71) || key.includes(0x51) || key.includes(0x03)) void stop();
      });
    }
  });
}

runCommand({ name: 'npm start --', prefix: 'npm start' }, () =>
  main().then(
    (code) => process.exit(code),
    (e: unknown) => {
      // The device's options are built here from start's own: a refusal names one of start's options.
      throw isAgentError(e, 'config.invalid') ? new UsageError(e.message) : e;
    },
  ),
);
