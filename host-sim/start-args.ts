/**
 * The options of `npm start`, read with `node:util` parseArgs. Every error is
 * a UsageError of one line that names the option; start.ts adds a one-line
 * hint and exits 2.
 */
import { parseArgs } from 'node:util';

export const startUsage = `usage: npm start -- [--port N] [--scenario FILE] [--store DIR] [--db FILE] [--tls]
  --port N         port of the local service on 127.0.0.1; default 8080, 0 picks a free one
  --scenario FILE  simulated signals per channel (JSON or YAML); default host-sim/device/scenarios/demo.json
  --store DIR      the device's outbox and cached configuration; default a scratch folder removed at exit
  --db FILE        the service's SQLite database; default a scratch folder removed at exit
  --tls            serve HTTPS and WSS with a fresh self-signed CA, which the device verifies
  --help           print this help`;

export class UsageError extends Error {}

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
  let values;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: {
        port: { type: 'string' },
        scenario: { type: 'string' },
        store: { type: 'string' },
        db: { type: 'string' },
        tls: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    const option = /'(-[^' ]+)/.exec(message)?.[1];
    const code = (e as { code?: string }).code;
    if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') throw new UsageError(`unknown option ${option ?? ''}`);
    if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') throw new UsageError(`${option ?? 'an option'} needs a value`);
    if (code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL') {
      throw new UsageError(`unexpected argument "${/'([^']*)'/.exec(message)?.[1] ?? ''}"`);
    }
    throw new UsageError(message.split('\n')[0] ?? message);
  }
  const portText = values.port ?? '8080';
  const port = Number(portText);
  if (!/^\d+$/.test(portText) || port > 65535) {
    throw new UsageError(`--port must be a whole number from 0 to 65535, got "${portText}"`);
  }
  return {
    port,
    scenario: values.scenario,
    store: values.store,
    db: values.db,
    tls: values.tls === true,
    help: values.help === true,
  };
}
