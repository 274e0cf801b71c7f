/**
 * Command line of the local service (docs/service.md):
 *   npm run service -- [--fixture F] [--port P] [--host H] [--db FILE] [--verbose]
 *                      [--print-tokens] [--tls-cert FILE --tls-key FILE]   (HTTPS + WSS, docs/tls.md)
 *                      [--firmware DIR [--max-downloads N]]   (images at /firmware/<name>, docs/ota.md)
 * Defaults: the demo fixture, port 8080, host 0.0.0.0 (a board on the LAN can
 * reach it), database `dds-local.db` in the working directory. Prints its
 * addresses and the count of the fixture's tokens (`--print-tokens` lists them);
 * stops cleanly on SIGINT/SIGTERM. Errors follow the commands' style
 * (../command-line.ts): a bad option exits 2, a runtime failure (port taken,
 * unknown host, no such database directory) 1, each one line naming the option
 * and the fix.
 */
import { existsSync, readFileSync } from 'node:fs';
import { networkInterfaces } from 'node:os';
import { dirname, resolve } from 'node:path';
import { portOption, readCommandLine, runCommand, UsageError } from '../command-line.js';
import { isServiceError } from './errors.js';
import { demoFixturePath as demoFixture, loadFixture } from './fixture.js';
import type { RunningService, ServiceOptions } from './index.js';

const usage = `usage: npm run service -- [--fixture FILE] [--port N] [--host ADDR] [--db FILE] [--verbose] [--print-tokens] [--tls-cert FILE --tls-key FILE]
                              [--firmware DIR [--max-downloads N]]
The local Device Data Service (HTTP API, SignalR hub, dashboard at /) seeded from a fixture, until Ctrl-C.
  --fixture FILE   seed file (decisions.md section 7); default the demo fixture
  --port N         TCP port; default 8080 (0 picks a free one)
  --host ADDR      listen address; default 0.0.0.0 (all interfaces, for a board on the LAN)
  --db FILE        SQLite file; default dds-local.db (":memory:" keeps nothing)
  --verbose        log requests on the hub
  --print-tokens   list the fixture's tokens (default: only their count and file)
  --tls-cert FILE  certificate chain (PEM) to serve HTTPS and WSS with; needs --tls-key
  --tls-key FILE   private key (PEM) of --tls-cert
  --firmware DIR   folder of firmware images to serve at /firmware/<name> (any valid token; docs/ota.md)
  --max-downloads N  concurrent image downloads in total; default 16 (503 with Retry-After beyond)
  --help           print this help`;

function lanAddresses(): string[] {
  return Object.values(networkInterfaces())
    .flat()
    .filter((a) => a !== undefined && a.family === 'IPv4' && !a.internal)
    .map((a) => (a as { address: string }).address);
}

/** A PEM file's text; a clear error when it is unreadable or not PEM. */
function readPem(path: string, flag: string): string {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new Error(`${flag} ${path}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  if (!text.includes('-----BEGIN ')) throw new Error(`${flag} ${path}: not a PEM file`);
  return text;
}

/** The service started, its failures as one line naming the option, path or host, with the fix. */
async function listen(
  options: ServiceOptions & { host: string; port: number; dbPath: string },
): Promise<RunningService> {
  const db = options.dbPath;
  if (db !== ':memory:' && !existsSync(dirname(resolve(db)))) {
    throw new Error(
      `--db ${db}: the directory ${dirname(resolve(db))} does not exist (create it, or use --db :memory:)`,
    );
  }
  // Loaded after the options are read: `--help` answers without loading Fastify and SQLite.
  const { startService } = await import('./index.js');
  try {
    return await startService(options);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code ?? '';
    const message = e instanceof Error ? e.message : String(e);
    if (code === 'EADDRINUSE')
      throw new Error(
        `--port ${options.port}: EADDRINUSE, taken by another program (stop it, or --port 0 picks a free one)`,
      );
    if (code === 'EACCES')
      throw new Error(`--port ${options.port}: EACCES, a port below 1024 needs privileges (use 8080 or --port 0)`);
    if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EADDRNOTAVAIL')
      throw new Error(
        `--host ${options.host}: ${code}, not an address of this machine (0.0.0.0 listens on all, 127.0.0.1 on this machine only)`,
      );
    if (/SQLITE/.test(code)) throw new Error(`--db ${db}: ${message}`);
    throw e;
  }
}

async function main(): Promise<number | undefined> {
  const { values } = readCommandLine(process.argv.slice(2), {
    fixture: { type: 'string', default: demoFixture },
    port: { type: 'string', default: '8080' },
    host: { type: 'string', default: '0.0.0.0' },
    db: { type: 'string', default: 'dds-local.db' },
    verbose: { type: 'boolean', default: false },
    'print-tokens': { type: 'boolean', default: false },
    'tls-cert': { type: 'string' },
    'tls-key': { type: 'string' },
    firmware: { type: 'string' },
    'max-downloads': { type: 'string' },
    help: { type: 'boolean', short: 'h', default: false },
  });
  if (values.help) {
    process.stdout.write(usage + '\n');
    return 0;
  }
  const port = portOption('--port', values.port);
  if ((values['tls-cert'] === undefined) !== (values['tls-key'] === undefined))
    throw new UsageError('--tls-cert and --tls-key go together');
  const tls =
    values['tls-cert'] === undefined || values['tls-key'] === undefined
      ? undefined
      : { cert: readPem(values['tls-cert'], '--tls-cert'), key: readPem(values['tls-key'], '--tls-key') };
  const maxDownloads = values['max-downloads'] === undefined ? undefined : Number(values['max-downloads']);
  if (maxDownloads !== undefined && (!Number.isInteger(maxDownloads) || maxDownloads < 1))
    throw new UsageError(`--max-downloads: expected a whole number >= 1, got ${values['max-downloads']}`);
  if (maxDownloads !== undefined && values.firmware === undefined)
    throw new UsageError('--max-downloads needs --firmware DIR');
  let fixture;
  try {
    fixture = loadFixture(values.fixture);
  } catch (e) {
    // loadFixture names the file (`fixture FILE: ...`): name the option too.
    throw isServiceError(e) ? new Error(`--${e.message}`) : e;
  }
  const service = await listen({
    fixture,
    port,
    host: values.host,
    dbPath: values.db,
    ...(tls === undefined ? {} : { tls }),
    ...(values.firmware === undefined
      ? {}
      : { firmware: { dir: values.firmware, ...(maxDownloads === undefined ? {} : { maxDownloads }) } }),
    ...(values.verbose ? { log: (line: string) => console.log(line) } : {}),
  });
  console.log(`Device Data Service (local) on ${service.url}  (hub ${service.wsUrl}/hubs/properties)`);
  if (values.host === '0.0.0.0')
    for (const a of lanAddresses()) console.log(`  on the LAN: ${tls ? 'https' : 'http'}://${a}:${service.port}`);
  console.log(`  fixture ${values.fixture}, database ${values.db}`);
  if (values.firmware !== undefined)
    console.log(
      `  firmware images from ${values.firmware} at ${service.url}/firmware/<name> (${maxDownloads ?? 16} downloads at once)`,
    );
  const admins = fixture.tokens.filter((t) => t.role === 'admin').length;
  console.log(
    `  ${fixture.tokens.length} tokens (${admins} admin, ${fixture.tokens.length - admins} device) from ${values.fixture}` +
      (values['print-tokens'] ? ':' : '; --print-tokens lists them'),
  );
  if (values['print-tokens']) {
    const keyOf = new Map(fixture.devices.map((d) => [d.uid, d.key]));
    for (const t of fixture.tokens) {
      const who = t.role === 'admin' ? 'admin' : `device ${keyOf.get(t.device) ?? t.device}`;
      console.log(`    ${t.token.padEnd(28)} ${who}`);
    }
  }
  const stop = (): void => {
    void service.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  return undefined;
}

runCommand({ name: 'npm run service --', prefix: 'service' }, main);
