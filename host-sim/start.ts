/**
 * `npm start`: the local Device Data Service with the demo fixture, and one
 * simulated device (demo-001) running the agent on the Node target against
 * it, live in the terminal (what is sampled, what is sent, the outbox depth).
 *
 *   npm start -- [--port N] [--scenario FILE] [--store DIR] [--db FILE] [--tls]
 *
 * `--tls` (issue 8): the service serves HTTPS/WSS with a certificate made at
 * start by host-sim/tls (a fresh self-signed CA for localhost/127.0.0.1), and
 * the device verifies it with that CA (`--ca <work>/ca.pem`).
 *
 * Defaults: port 8080 (a free port when taken), the demo scenario of
 * host-sim/device/scenarios/demo.json, the outbox and database in a fresh
 * temporary directory.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { startService, type RunningService } from './service/index.js';
import { parseDeviceOptions, startSimulatedAgent } from './hardware/agent.js';
import { ConsoleLogger } from '../targets/node/logger.js';
import { LiveView } from './device/live-view.js';
import { generatePki } from './tls/pki.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const fixture = join(root, 'host-sim', 'service', 'fixtures', 'demo.json');
const demoScenario = join(root, 'host-sim', 'device', 'scenarios', 'demo.json');

async function listen(
  port: number,
  dbPath: string,
  tls: { cert: string; key: string } | undefined,
): Promise<RunningService> {
  const more = tls === undefined ? {} : { tls };
  try {
    return await startService({ fixture, port, host: '127.0.0.1', dbPath, ...more });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EADDRINUSE' || port === 0) throw e;
    return startService({ fixture, port: 0, host: '127.0.0.1', dbPath, ...more });
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: 'string' },
      scenario: { type: 'string' },
      store: { type: 'string' },
      db: { type: 'string' },
      tls: { type: 'boolean' },
    },
  });
  const work = mkdtempSync(join(tmpdir(), 'dds-start-'));
  const pki = values.tls === true ? generatePki() : undefined;
  const caPath = join(work, 'ca.pem');
  if (pki !== undefined) writeFileSync(caPath, pki.caPem);
  // The chain (server certificate, then the CA): Moddable's TLS needs the CA sent along (docs/tls.md).
  const tls = pki === undefined ? undefined : { cert: pki.certPem + pki.caPem, key: pki.keyPem };
  const service = await listen(Number(values.port ?? 8080), values.db ?? join(work, 'dds.db'), tls);
  const options = parseDeviceOptions([
    ...['--service', service.url, '--device', 'demo-001', '--token', 'device-token-demo-001'],
    ...['--store', values.store ?? join(work, 'device'), '--scenario', values.scenario ?? demoScenario],
    // The demo's field buses: the simulated Modbus slave and the simulated J1939 engine (host-sim/modbus, can).
    ...['--bus', 'rs485=sim', '--bus', 'can0=j1939-sim'],
    // The demo's GNSS receiver: the simulated receiver driving its built-in route (host-sim/gnss).
    ...['--gnss', 'simulated'],
    ...(pki === undefined ? [] : ['--ca', caPath]),
  ]);
  const warnings: string[] = [];
  const logger = new ConsoleLogger('warn', (line) => {
    warnings.push(line);
    if (warnings.length > 5) warnings.shift();
  });
  const header =
    `Device Data Service at ${service.url} (admin token admin-token-demo)\n` +
    (pki === undefined ? '' : `TLS: self-signed CA ${caPath} (curl --cacert ${caPath} ...)\n`) +
    `simulated device demo-001 (token device-token-demo-001), store ${options.store ?? '(memory)'}`;
  const view = new LiveView(process.stdout, header);
  const runtime = await startSimulatedAgent(options, {
    logger,
    agent: { onSample: view.sampled, onReport: view.reported },
  });
  runtime.pins.onWrite(view.written);
  const hubStatus = (): string => runtime.hub?.status ?? 'off';
  const timer = setInterval(() => view.render(runtime.agent, hubStatus()), 1000);
  view.render(runtime.agent, hubStatus());
  const stop = async (): Promise<void> => {
    clearInterval(timer);
    runtime.stop();
    await service.close();
    process.stdout.write(`stopped; last warnings:\n${warnings.join('\n')}\n`);
    process.exit(0);
  };
  process.once('SIGINT', () => void stop());
  process.once('SIGTERM', () => void stop());
}

main().catch((e: unknown) => {
  process.stderr.write(`npm start: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
});
