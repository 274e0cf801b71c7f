/**
 * Command line of the local service (docs/service.md):
 *   npm run service -- [--fixture F] [--port P] [--host H] [--db FILE] [--verbose]
 *                      [--tls-cert FILE --tls-key FILE]   (HTTPS + WSS, docs/tls.md)
 *                      [--firmware DIR [--max-downloads N]]   (images at /firmware/<name>, docs/ota.md)
 * Defaults: the demo fixture, port 8080, host 0.0.0.0 (a board on the LAN can
 * reach it), database `dds-local.db` in the working directory. Prints its
 * addresses and the fixture's tokens; stops cleanly on SIGINT/SIGTERM.
 */
import { readFileSync } from 'node:fs';
import { networkInterfaces } from 'node:os';
import { parseArgs } from 'node:util';
import { isServiceError } from './errors.js';
import { demoFixturePath as demoFixture, loadFixture } from './fixture.js';
import { startService } from './index.js';

const usage = `usage: npm run service -- [--fixture FILE] [--port N] [--host ADDR] [--db FILE] [--verbose] [--tls-cert FILE --tls-key FILE] [--firmware DIR [--max-downloads N]]
  --fixture  seed file (decisions.md section 7); default the demo fixture
  --port     TCP port; default 8080 (0 picks a free one)
  --host     listen address; default 0.0.0.0 (all interfaces, for a board on the LAN)
  --db       SQLite file; default dds-local.db (":memory:" keeps nothing)
  --verbose  log requests on the hub
  --tls-cert certificate chain (PEM) to serve HTTPS and WSS with; needs --tls-key
  --tls-key  private key (PEM) of --tls-cert
  --firmware folder of firmware images to serve at /firmware/<name> (any valid token; docs/ota.md)
  --max-downloads  concurrent image downloads in total; default 16 (503 with Retry-After beyond)`;

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
    throw new Error(`${flag} ${path}: ${(e as Error).message}`);
  }
  if (!text.includes('-----BEGIN ')) throw new Error(`${flag} ${path}: not a PEM file`);
  return text;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      fixture: { type: 'string', default: demoFixture },
      port: { type: 'string', default: '8080' },
      host: { type: 'string', default: '0.0.0.0' },
      db: { type: 'string', default: 'dds-local.db' },
      verbose: { type: 'boolean', default: false },
      'tls-cert': { type: 'string' },
      'tls-key': { type: 'string' },
      firmware: { type: 'string' },
      'max-downloads': { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    console.log(usage);
    return;
  }
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`--port: expected 0..65535, got ${values.port}`);
  if ((values['tls-cert'] === undefined) !== (values['tls-key'] === undefined))
    throw new Error('--tls-cert and --tls-key go together');
  const tls =
    values['tls-cert'] === undefined || values['tls-key'] === undefined
      ? undefined
      : { cert: readPem(values['tls-cert'], '--tls-cert'), key: readPem(values['tls-key'], '--tls-key') };
  const maxDownloads = values['max-downloads'] === undefined ? undefined : Number(values['max-downloads']);
  if (maxDownloads !== undefined && (!Number.isInteger(maxDownloads) || maxDownloads < 1))
    throw new Error(`--max-downloads: expected a whole number >= 1, got ${values['max-downloads']}`);
  if (maxDownloads !== undefined && values.firmware === undefined)
    throw new Error('--max-downloads needs --firmware DIR');
  const fixture = loadFixture(values.fixture);
  const service = await startService({
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
  console.log('  tokens (from the fixture: test credentials of this local service, not secrets):');
  for (const t of fixture.tokens) {
    const who =
      t.role === 'admin' ? 'admin' : `device ${fixture.devices.find((d) => d.uid === t.device)?.key ?? t.device}`;
    console.log(`    ${t.token.padEnd(28)} ${who}`);
  }
  const stop = (): void => {
    void service.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((e: unknown) => {
  console.error(isServiceError(e) ? `service: ${e.message}` : `service: ${(e as Error).message}\n${usage}`);
  process.exit(1);
});
