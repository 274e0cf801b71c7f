/**
 * The options of `npm start`, read with `node:util` parseArgs (command-line.ts).
 * Every error is a UsageError of one line that names the option; start.ts adds
 * a one-line hint and exits 2.
 */
import { portOption, readCommandLine, UsageError } from './command-line.js';

export const startUsage = `usage: npm start -- [--port N] [--scenario FILE] [--store DIR] [--db FILE] [--tls]
The local Device Data Service with the demo fixture, and the simulated device demo-001 reporting to it, live in
the terminal; the dashboard at the URL it prints. q or Ctrl-C stops both.
  --port N         port of the local service on 127.0.0.1; default 8080, 0 picks a free one
  --scenario FILE  simulated signals per channel (JSON or YAML); default host-sim/device/scenarios/demo.json
  --store DIR      the device's outbox and cached configuration; default a scratch folder removed at exit
  --db FILE        the service's SQLite database; default a scratch folder removed at exit
  --tls            serve HTTPS and WSS with a fresh self-signed CA, which the device verifies
  --help           print this help`;

export { UsageError };

export interface StartArgs {
  port: number;
  scenario: string | undefined;
  store: string | undefined;
  db: string | undefined;
  tls: boolean;
  help: boolean;
}

/** Parses argv (without node and script); throws UsageError naming the option. */
export function parseStartArgs(argv: readonly string[]): StartArgs {
  const { values } = readCommandLine(argv, {
    port: { type: 'string' },
    scenario: { type: 'string' },
    store: { type: 'string' },
    db: { type: 'string' },
    tls: { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
  });
  const port = portOption('--port', values.port ?? '8080');
  return {
    port,
    scenario: values.scenario,
    store: values.store,
    db: values.db,
    tls: values.tls === true,
    help: values.help === true,
  };
}
