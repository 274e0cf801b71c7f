/**
 * Options of the Node agent (`npm run agent -- ...`), from flags, environment
 * variables and a JSON config file, in that order of precedence:
 *
 *   --service URL   DDS_SERVICE    base URL of the Device Data Service
 *   --device KEY    DDS_DEVICE     device external key (or UUID)
 *   --token TOKEN   DDS_TOKEN      access token
 *   --store DIR     DDS_STORE      directory for the outbox and cached config (default: memory only)
 *   --scenario FILE DDS_SCENARIO   simulated signals per channel key (host-sim/device/scenario.ts)
 *   --config FILE   DDS_CONFIG     JSON file with any of the above by long name
 *   --log-level L   DDS_LOG_LEVEL  debug | info | warn | error (default info)
 *   --no-hub                       no hub connection (desired values only by resync)
 *   --config-refresh S DDS_CONFIG_REFRESH  seconds between configuration re-reads (default 300, 0 off)
 *   --ca FILE       DDS_CA         PEM CA certificate(s) to verify https/wss against (issue 8)
 *   --insecure      DDS_INSECURE   lab only: accept any certificate (logged loudly)
 *
 * The table is open: other areas add their flags (e.g. --gnss, --bus) to
 * `optionTable`; repeatable flags collect every value. Bad input throws
 * AgentError `config.invalid` with a message meant for the user.
 */
import { AgentError } from '../../src/errors.js';
import type { LogLevel } from '../../src/ports.js';

export interface OptionSpec {
  flag: string;
  env?: string;
  help: string;
  repeatable?: boolean;
  /** A flag without a value (true when present). */
  boolean?: boolean;
}

export const optionTable: OptionSpec[] = [
  { flag: 'service', env: 'DDS_SERVICE', help: 'base URL of the Device Data Service' },
  { flag: 'device', env: 'DDS_DEVICE', help: 'device external key or UUID' },
  { flag: 'token', env: 'DDS_TOKEN', help: 'access token (Authorization: Bearer)' },
  { flag: 'store', env: 'DDS_STORE', help: 'directory for the outbox and the cached configuration' },
  { flag: 'scenario', env: 'DDS_SCENARIO', help: 'scenario file (JSON or YAML) of simulated signals' },
  { flag: 'config', env: 'DDS_CONFIG', help: 'JSON file with any option by its long name' },
  { flag: 'log-level', env: 'DDS_LOG_LEVEL', help: 'debug | info | warn | error' },
  { flag: 'no-hub', help: 'do not open the hub connection (no real-time desired values)', boolean: true },
  {
    flag: 'config-refresh',
    env: 'DDS_CONFIG_REFRESH',
    help: 'seconds between re-reads of the configuration (jittered; default 300; 0 turns it off)',
  },
  { flag: 'ca', env: 'DDS_CA', help: 'PEM file of the CA(s) to verify https:// and wss:// against' },
  {
    flag: 'insecure',
    env: 'DDS_INSECURE',
    help: 'LAB USE ONLY: accept any server certificate (warned at startup and on every hub connect)',
    boolean: true,
  },
  { flag: 'gnss', env: 'DDS_GNSS', help: 'GNSS receiver: DEVICE[@BAUD] or simulated[:route.json|log]' },
  {
    flag: 'bus',
    env: 'DDS_BUS',
    help: 'KEY=TARGET: a bus of the channel list on a serial device path, sim[:map.json], j1939-sim or replay:candump.log (repeatable)',
    repeatable: true,
  },
  { flag: 'help', help: 'print this help', boolean: true },
];

export interface NodeAgentOptions {
  service: string;
  device: string;
  token: string;
  store: string | undefined;
  scenario: string | undefined;
  logLevel: LogLevel;
  help: boolean;
  /** Every option by flag name, all values (for flags added by other areas). */
  values: Readonly<Record<string, readonly string[]>>;
}

const logLevels: readonly LogLevel[] = ['debug', 'info', 'warn', 'error'];

export function usage(): string {
  const lines = optionTable.map(
    (o) => `  --${o.flag}${o.boolean === true ? '' : ' VALUE'}`.padEnd(24) + `${o.env ?? ''}`.padEnd(16) + o.help,
  );
  return `usage: npm run agent -- --service URL --device KEY --token TOKEN [options]\n${lines.join('\n')}`;
}

function bad(message: string): never {
  throw new AgentError('config.invalid', `${message}\n${usage()}`);
}

function parseFlags(argv: readonly string[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (!arg.startsWith('--')) bad(`unexpected argument "${arg}"`);
    const eq = arg.indexOf('=');
    const name = arg.slice(2, eq < 0 ? undefined : eq);
    const spec = optionTable.find((o) => o.flag === name);
    if (spec === undefined) bad(`unknown option --${name}`);
    let value: string;
    if (spec.boolean === true) value = 'true';
    else if (eq >= 0) value = arg.slice(eq + 1);
    else {
      const next = argv[++i];
      if (next === undefined || next.startsWith('--')) bad(`--${name} needs a value`);
      value = next;
    }
    if (out.has(name) && spec.repeatable !== true) bad(`--${name} given twice`);
    out.set(name, [...(out.get(name) ?? []), value]);
  }
  return out;
}

function fromConfigFile(path: string, readFile: (path: string) => string): Map<string, string[]> {
  let body: unknown;
  try {
    body = JSON.parse(readFile(path)) as unknown;
  } catch (e) {
    // Not the parser's message: newer engines quote the file's text, which may hold the token (issue 8).
    const at = /position \d+/.exec(e instanceof Error ? e.message : '')?.[0];
    const why =
      e instanceof SyntaxError
        ? `not valid JSON${at === undefined ? '' : ` (${at})`}`
        : e instanceof Error
          ? e.message
          : String(e);
    bad(`--config ${path}: ${why}`);
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) bad(`--config ${path}: expected a JSON object`);
  const out = new Map<string, string[]>();
  for (const [name, v] of Object.entries(body)) {
    const spec = optionTable.find(
      (o) => o.flag === name || o.flag === name.replace(/[A-Z]/g, (c) => '-' + c.toLowerCase()),
    );
    if (spec === undefined) bad(`--config ${path}: unknown option "${name}"`);
    const list = Array.isArray(v) ? v : [v];
    if (!list.every((x) => typeof x === 'string' || typeof x === 'number' || typeof x === 'boolean')) {
      bad(`--config ${path}: "${name}" must be a string, number or boolean`);
    }
    out.set(spec.flag, list.map(String));
  }
  return out;
}

/** Parses argv (without node and script), the environment, and the config file they name. */
export function parseOptions(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
  readFile: (path: string) => string,
): NodeAgentOptions {
  const flags = parseFlags(argv);
  const values = new Map<string, string[]>();
  const configPath = flags.get('config')?.[0] ?? env['DDS_CONFIG'];
  if (configPath !== undefined) for (const [k, v] of fromConfigFile(configPath, readFile)) values.set(k, v);
  for (const spec of optionTable) {
    const e = spec.env === undefined ? undefined : env[spec.env];
    if (e !== undefined && e !== '') values.set(spec.flag, [e]);
  }
  for (const [k, v] of flags) values.set(k, v);
  const one = (name: string): string | undefined => values.get(name)?.[0];
  const help = one('help') === 'true';
  const missing = ['service', 'device', 'token'].filter((n) => one(n) === undefined || one(n) === '');
  if (missing.length > 0 && !help) {
    bad(`missing ${missing.map((n) => `--${n} (or ${optionTable.find((o) => o.flag === n)?.env})`).join(', ')}`);
  }
  const service = one('service') ?? '';
  if (!help && !/^https?:\/\/[^/\s]+/.test(service))
    bad(`--service must be an http:// or https:// URL, got "${service}"`);
  const logLevel = one('log-level') ?? 'info';
  if (!(logLevels as readonly string[]).includes(logLevel)) bad(`--log-level must be one of ${logLevels.join(', ')}`);
  return {
    service: service.replace(/\/+$/, ''),
    device: one('device') ?? '',
    token: one('token') ?? '',
    store: one('store'),
    scenario: one('scenario'),
    logLevel: logLevel as LogLevel,
    help,
    values: Object.fromEntries(values),
  };
}

/**
 * The token wherever it may be before the options are parsed (`--token X`,
 * `--token=X`, `DDS_TOKEN`), so that even a failed parse or an early crash is
 * redacted (issue 8).
 */
export function tokensInArgs(argv: readonly string[], env: Readonly<Record<string, string | undefined>>): string[] {
  const out: string[] = [];
  const fromEnv = env['DDS_TOKEN'];
  if (fromEnv !== undefined && fromEnv !== '') out.push(fromEnv);
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--token' && argv[i + 1] !== undefined) out.push(argv[i + 1]!);
    else if (arg.startsWith('--token=')) out.push(arg.slice('--token='.length));
  }
  return out;
}
