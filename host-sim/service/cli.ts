/**
 * Command line of the local service (docs/service.md):
 *   npm run service -- [--fixture F] [--port P] [--host H] [--db FILE] [--verbose]
 *                      [--print-tokens] [--tls-cert FILE --tls-key FILE]   (HTTPS + WSS, docs/tls.md)
 * Defaults: the demo fixture, port 8080, host 0.0.0.0 (a board on the LAN can
 * reach it), database `dds-local.db` in the working directory. Prints its
 * addresses and the count of the fixture's tokens (`--print-tokens` lists them);
 * stops cleanly on SIGINT/SIGTERM.
 */
import { readFileSync } from 'node:fs';
import { networkInterfaces } from 'node:os';
import { parseArgs } from 'node:util';
import { isServiceError } from './errors.js';
import { demoFixturePath as demoFixture, loadFixture } from './fixture.js';
import { startService } from './index.js';

const usage = `usage: npm run service -- [--fixture FILE] [--port N] [--host ADDR] [--db FILE] [--verbose] [--print-tokens] [--tls-cert FILE --tls-key FILE]
  --fixture  seed file (decisions.md section 7); default the demo fixture
  --port     TCP port; default 8080 (0 picks a free one)
  --host     listen address; default 0.0.0.0 (all interfaces, for a board on the LAN)
  --db       SQLite file; default dds-local.db (":memory:" keeps nothing)
  --verbose  log requests on the hub
  --print-tokens  list the fixture's tokens (default: only their count and file)
  --tls-cert certificate chain (PEM) to serve HTTPS and WSS with; needs --tls-key
  --tls-key  private key (PEM) of --tls-cert`;

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
      'print-tokens': { type: 'boolean', default: false },
      'tls-cert': { type: 'string' },
      'tls-key': { type: 'string' },
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
  const fixture = loadFixture(values.fixture);
  const service = await startService({
    fixture,
    port,
    host: values.host,
    dbPath: values.db,
    ...(tls === undefined ? {} : { tls }),
    ...(values.verbose ? { log: (line: string) => console.log(line) } : {}),
  });
  console.log(`Device Data Service (local) on ${service.url}  (hub ${service.wsUrl}/hubs/properties)`);
  if (values.host === '0.0.0.0')
    for (const a of lanAddresses()) console.log(`  on the LAN: ${tls ? 'https' : 'http'}://${a}:${service.port}`);
  console.log(`  fixture ${values.fixture}, database ${values.db}`);
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
}

main().catch((e: unknown) => {
  console.error(isServiceError(e) ? `service: ${e.message}` : `service: ${(e as Error).message}\n${usage}`);
  process.exit(1);
});
