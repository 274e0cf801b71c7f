/**
 * Options of the Node agent (`npm run agent -- ...`), from flags, environment
 * variables and a JSON config file, in that order of precedence:
 *
 *   --service URL      DDS_SERVICE     base URL of the Device Data Service
 *   --device KEY       DDS_DEVICE      device external key (or UUID)
 *   --token-file FILE  DDS_TOKEN_FILE  file holding the access token (or DDS_TOKEN, or --token)
 *   --store DIR        DDS_STORE       directory for the outbox and cached config (default: memory only)
 *   --config FILE      DDS_CONFIG      JSON file with any of the above by long name
 *   --log-level L      DDS_LOG_LEVEL   debug | info | warn | error (default info)
 *   --no-hub                           no hub connection (desired values only by resync)
 *   --config-refresh S DDS_CONFIG_REFRESH  seconds between configuration re-reads (default 300, 0 off)
 *   --ca FILE          DDS_CA          PEM CA certificate(s) to verify https/wss against
 *   --insecure         DDS_INSECURE    lab only: accept any certificate (logged loudly)
 *   --gnss, --bus                      the GNSS receiver and the field buses (gnss.ts, buses.ts)
 *
 * Flags are read with `node:util` parseArgs. A caller adds its own flags (the
 * simulator's --scenario) through `extra`; repeatable flags collect every
 * value. Bad input throws AgentError `config.invalid` with one line naming the
 * option, then a one-line hint.
 */
import { parseArgs } from 'node:util';
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
  { flag: 'token-file', env: 'DDS_TOKEN_FILE', help: 'file holding the access token (first line)' },
  { flag: 'token', env: 'DDS_TOKEN', help: 'access token; prefer DDS_TOKEN or --token-file (argv is public)' },
  { flag: 'store', env: 'DDS_STORE', help: 'directory for the outbox and the cached configuration' },
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
  {
    flag: 'exit-on-auth-failure',
    help: 'end the run (exit 1) when the service refuses the token or does not know the device',
    boolean: true,
  },
  { flag: 'gnss', env: 'DDS_GNSS', help: 'GNSS receiver: DEVICE[@BAUD], e.g. /dev/ttyUSB0@9600' },
  {
    flag: 'bus',
    env: 'DDS_BUS',
    help: 'KEY=DEVICE: a bus of the channel list on a serial device, e.g. rs485=/dev/ttyUSB1 (repeatable)',
    repeatable: true,
  },
  { flag: 'help', help: 'print this help', boolean: true },
];

export interface NodeAgentOptions {
  service: string;
  device: string;
  token: string;
  store: string | undefined;
  logLevel: LogLevel;
  help: boolean;
  /** True when the token came from `--token` on the command line (visible in process lists). */
  tokenOnCommandLine: boolean;
  /** Every option by flag name, all values (for flags added by other areas). */
  values: Readonly<Record<string, readonly string[]>>;
}

/** How a command names itself in its usage and hints. */
export interface CommandInfo {
  name: string;
  /** What the command does, under the usage line of its help. */
  about?: string;
  extra?: readonly OptionSpec[];
}

const agentAbout =
  "The agent on Node: reads the device's channels on real serial ports (--gnss, --bus) and reports them to the\n" +
  'Device Data Service; simulated hardware is `npm run device`. Ctrl-C stops it (the queue is flushed first).';
const agentCommand: CommandInfo = { name: 'npm run agent --' };
const logLevels: readonly LogLevel[] = ['debug', 'info', 'warn', 'error'];

function tableOf(command: CommandInfo): OptionSpec[] {
  // A caller's flag of the same name replaces the target's (its help tells what else it accepts).
  const extra = command.extra ?? [];
  const own = optionTable.filter((o) => o.flag !== 'help').map((o) => extra.find((e) => e.flag === o.flag) ?? o);
  const added = extra.filter((e) => !optionTable.some((o) => o.flag === e.flag));
  return [...own, ...added, optionTable[optionTable.length - 1]!];
}

export function usage(command: CommandInfo = agentCommand): string {
  const rows = tableOf(command).map((o) => [`  --${o.flag}${o.boolean === true ? '' : ' VALUE'}`, o.env ?? '', o.help]);
  // Each column as wide as its widest cell plus two spaces: a long flag or variable never runs into the next.
  const width = (i: number): number => Math.max(...rows.map((r) => r[i]!.length)) + 2;
  const [flagWidth, envWidth] = [width(0), width(1)];
  const lines = rows.map(([flag, env, help]) => flag!.padEnd(flagWidth) + env!.padEnd(envWidth) + help!);
  return [
    `usage: ${command.name} --service URL --device KEY [options]   (token: DDS_TOKEN or --token-file)`,
    command.about ?? agentAbout,
    `  ${'option'.padEnd(flagWidth - 2)}environment`,
    ...lines,
  ].join('\n');
}

/** A one-line hint under every error, instead of the whole usage. */
export function hint(command: CommandInfo = agentCommand): string {
  return `(${command.name} --help lists the options)`;
}

function failWith(command: CommandInfo): (message: string) => never {
  return (message) => {
    throw new AgentError('config.invalid', `${message}\n${hint(command)}`);
  };
}

/** The flags of argv by parseArgs, every value as a list; repeats of a single-valued flag refused. */
function parseFlags(argv: readonly string[], table: readonly OptionSpec[], bad: (m: string) => never) {
  const options = Object.fromEntries(
    table.map((o) => [
      o.flag,
      o.boolean === true ? { type: 'boolean' as const } : { type: 'string' as const, multiple: true },
    ]),
  );
  let parsed;
  try {
    parsed = parseArgs({ args: [...argv], options, strict: true, allowPositionals: false });
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    const option = /'(-[^' ]+)/.exec(message)?.[1];
    const code = (e as { code?: string }).code;
    if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') bad(`unknown option ${option ?? message}`);
    if (code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL')
      bad(`unexpected argument "${/'([^']*)'/.exec(message)?.[1] ?? ''}"`);
    if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') bad(`${option ?? 'an option'} needs a value`);
    bad(message.split('\n')[0] ?? message);
  }
  const out = new Map<string, string[]>();
  for (const [name, value] of Object.entries(parsed.values)) {
    const spec = table.find((o) => o.flag === name)!;
    const list = Array.isArray(value) ? value.map(String) : [String(value)];
    if (list.length > 1 && spec.repeatable !== true) bad(`--${name} given twice`);
    out.set(name, list);
  }
  return out;
}

function fromConfigFile(
  path: string,
  readFile: (path: string) => string,
  table: readonly OptionSpec[],
  bad: (m: string) => never,
): Map<string, string[]> {
  let body: unknown;
  try {
    body = JSON.parse(readFile(path)) as unknown;
  } catch (e) {
    // Not the parser's message: newer engines quote the file's text, which may hold the token (docs/tls.md).
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
    const spec = table.find((o) => o.flag === name || o.flag === name.replace(/[A-Z]/g, (c) => '-' + c.toLowerCase()));
    if (spec === undefined) bad(`--config ${path}: unknown option "${name}"`);
    const list = Array.isArray(v) ? v : [v];
    if (!list.every((x) => typeof x === 'string' || typeof x === 'number' || typeof x === 'boolean')) {
      bad(`--config ${path}: "${name}" must be a string, number or boolean`);
    }
    out.set(spec.flag, list.map(String));
  }
  return out;
}

/** The token of `--token-file` (its first line), naming the option and the path when it cannot be read. */
function tokenFromFile(path: string, readFile: (path: string) => string, bad: (m: string) => never): string {
  let text: string;
  try {
    text = readFile(path);
  } catch (e) {
    bad(`--token-file ${path}: ${(e as { code?: string }).code ?? (e instanceof Error ? e.message : String(e))}`);
  }
  const token = text.split(/\r?\n/)[0]?.trim() ?? '';
  if (token === '') bad(`--token-file ${path}: the file's first line is empty`);
  return token;
}

/** Parses argv (without node and script), the environment, and the config file they name. */
export function parseOptions(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
  readFile: (path: string) => string,
  command: CommandInfo = agentCommand,
): NodeAgentOptions {
  const bad = failWith(command);
  const table = tableOf(command);
  const flags = parseFlags(argv, table, bad);
  const values = new Map<string, string[]>();
  const configPath = flags.get('config')?.[0] ?? env['DDS_CONFIG'];
  if (configPath !== undefined) {
    for (const [k, v] of fromConfigFile(configPath, readFile, table, bad)) values.set(k, v);
  }
  for (const spec of table) {
    const e = spec.env === undefined ? undefined : env[spec.env];
    if (e !== undefined && e !== '') values.set(spec.flag, [e]);
  }
  for (const [k, v] of flags) values.set(k, v);
  const one = (name: string): string | undefined => values.get(name)?.[0];
  const help = one('help') === 'true';
  const tokenFile = one('token-file');
  if (tokenFile !== undefined && !help && one('token') === undefined) {
    values.set('token', [tokenFromFile(tokenFile, readFile, bad)]);
  }
  const missing = ['service', 'device', 'token'].filter((n) => one(n) === undefined || one(n) === '');
  if (missing.length > 0 && !help) {
    const how: Record<string, string> = { token: 'DDS_TOKEN or --token-file' };
    bad(`missing ${missing.map((n) => `--${n} (or ${how[n] ?? table.find((o) => o.flag === n)?.env})`).join(', ')}`);
  }
  const service = one('service') ?? '';
  if (!help && !/^https?:\/\/[^/\s]+/.test(service)) {
    bad(`--service must be an http:// or https:// URL, got "${service}"`);
  }
  const logLevel = one('log-level') ?? 'info';
  if (!(logLevels as readonly string[]).includes(logLevel)) {
    bad(`--log-level must be one of ${logLevels.join(', ')}, got "${logLevel}"`);
  }
  return {
    service: service.replace(/\/+$/, ''),
    device: one('device') ?? '',
    token: one('token') ?? '',
    store: one('store'),
    logLevel: logLevel as LogLevel,
    help,
    tokenOnCommandLine: flags.has('token'),
    values: Object.fromEntries(values),
  };
}

/**
 * The token wherever it may be before the options are parsed (`--token X`,
 * `--token=X`, `DDS_TOKEN`), so that even a failed parse or an early crash is
 * redacted.
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
