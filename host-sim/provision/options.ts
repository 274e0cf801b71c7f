/**
 * `npm run provision`'s options (docs/moddable.md, "Provisioning a board"):
 * `--board http://ADDR[:PORT] --service URL --device KEY [--wifi SSID]
 * [--ca FILE] [--code CODE]`, or `--from-fleet FILE` for the device and token.
 * The token comes from `DDS_TOKEN` or `--token-file`, the Wi-Fi password from
 * `DDS_WIFI_PASSWORD`: never from the command line, which `ps` and npm's
 * banner show. A bad option is AgentError `config.invalid` naming it.
 */
import { AgentError } from '../../src/errors.js';

export interface ProvisionOptions {
  help: boolean;
  board: string;
  service: string;
  /** Undefined with `--from-fleet` (the row gives it). */
  device: string | undefined;
  token: string | undefined;
  fleetFile: string | undefined;
  ssid: string | undefined;
  password: string | undefined;
  caFile: string | undefined;
  code: string | undefined;
  timeoutMs: number;
}

export const Usage = `usage: dds-provision --board http://ADDR[:PORT] --service URL --device KEY [--wifi SSID] [--ca FILE] [--code CODE]
       dds-provision --board http://ADDR[:PORT] --service URL --from-fleet FILE [--wifi SSID] [--ca FILE] [--code CODE]
Gives a board in setup mode its service, device, token and Wi-Fi (docs/moddable.md); the board tries them first.
  --board URL         the board in setup mode (http://192.168.4.1 on its access point; the simulator's setupPort)
  --service URL       the Device Data Service the board will report to
  --device KEY        the device's key (with the token of DDS_TOKEN or --token-file)
  --token-file FILE   file holding the device's token (first line); or DDS_TOKEN
  --from-fleet FILE   the next unused row of a key,token CSV (docs/fleet.md); the row is marked used on success
  --wifi SSID         the Wi-Fi network the board joins (password: DDS_WIFI_PASSWORD)
  --ca FILE           a PEM CA certificate the service's chain must end in
  --code CODE         the setup code the board printed (asked on the terminal when absent)
  --timeout SECONDS   how long to wait for the board's answer (default 60)
exit: 0 provisioned, 1 refused (401, 422, ...) or no answer, 2 bad options`;

const FLAGS = ['board', 'service', 'device', 'token-file', 'from-fleet', 'wifi', 'ca', 'code', 'timeout'] as const;

function bad(message: string): never {
  throw new AgentError('config.invalid', message);
}

/** Parses `argv` (after the command); `readFile` reads `--token-file`. */
export function parseProvisionOptions(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
  readFile: (path: string) => string,
): ProvisionOptions {
  const values = new Map<string, string>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === '--help' || arg === '-h') return { help: true } as ProvisionOptions;
    if (arg === '--token') bad('--token: the token is never given on the command line; use DDS_TOKEN or --token-file');
    const [flag, inline] = arg.startsWith('--') ? (arg.slice(2).split(/=(.*)/s) as [string, string?]) : [arg];
    if (!(FLAGS as readonly string[]).includes(flag)) bad(`${arg}: unknown option (see --help)`);
    const value = inline ?? argv[++i];
    if (value === undefined || value === '') bad(`--${flag}: expected a value`);
    if (values.has(flag)) bad(`--${flag}: given twice`);
    values.set(flag, value);
  }
  const board = values.get('board') ?? bad('--board: required (the board in setup mode, http://ADDR[:PORT])');
  if (!/^http:\/\/[^/\s]+\/?$/.test(board)) bad(`--board: expected http://ADDR[:PORT], got ${JSON.stringify(board)}`);
  const service = values.get('service') ?? bad('--service: required (the Device Data Service URL)');
  if (!/^https?:\/\/[^/\s]+(\/\S*)?$/.test(service))
    bad(`--service: expected an http(s) URL, got ${JSON.stringify(service)}`);
  const fleetFile = values.get('from-fleet');
  const device = values.get('device');
  const tokenFile = values.get('token-file');
  let token: string | undefined;
  if (fleetFile !== undefined) {
    if (device !== undefined || tokenFile !== undefined)
      bad('--from-fleet: the row gives the device and its token; drop --device and --token-file');
  } else {
    if (device === undefined) bad('--device: required (or --from-fleet FILE)');
    if (tokenFile !== undefined) {
      try {
        token = (readFile(tokenFile).split(/\r?\n/)[0] ?? '').trim();
      } catch (e) {
        bad(`--token-file ${tokenFile}: ${(e as { code?: string }).code ?? String(e)}`);
      }
      if (token === '') bad(`--token-file ${tokenFile}: the file's first line is empty`);
    } else token = env.DDS_TOKEN;
    if (token === undefined || token === '') bad('no token: set DDS_TOKEN or give --token-file FILE');
  }
  const ssid = values.get('wifi');
  const password = env.DDS_WIFI_PASSWORD === '' ? undefined : env.DDS_WIFI_PASSWORD;
  if (ssid === undefined && password !== undefined) bad('DDS_WIFI_PASSWORD is set but --wifi is not');
  const timeout = values.get('timeout') ?? '60';
  if (!/^\d+$/.test(timeout) || Number(timeout) < 1)
    bad(`--timeout: expected whole seconds, got ${JSON.stringify(timeout)}`);
  return {
    help: false,
    board: board.replace(/\/$/, ''),
    service: service.replace(/\/+$/, ''),
    device,
    token,
    fleetFile,
    ssid,
    password,
    caFile: values.get('ca'),
    code: values.get('code'),
    timeoutMs: Number(timeout) * 1000,
  };
}
