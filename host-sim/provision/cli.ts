/**
 * `npm run provision` / `dds-provision`: gives a board in setup mode its
 * settings over its setup server (decisions 11; docs/moddable.md). The setup
 * code comes from `--code` or is asked on the terminal (one line of standard
 * input). Prints the board's answer in one line; exit 0 when provisioned, 1
 * when the board refused (401, 422, 429...) or did not answer, 2 for bad
 * options; `--help` prints the usage and touches nothing. With
 * `--from-fleet FILE` the device and token are the file's next unused row,
 * marked used once the board answered 200.
 */
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { isAgentError } from '../../src/errors.js';
import { markUsed, nextRow, type FleetRow } from './fleet-rows.js';
import { parseProvisionOptions, Usage } from './options.js';
import { provision, recordProvisioning } from './provision.js';
import { FetchHttp } from '../../targets/node/http.js';

/** Asks for the setup code on the terminal: one line of standard input. */
function askCode(): Promise<string | undefined> {
  if (process.stdin.isTTY) process.stderr.write('setup code (the board printed "setup code: ..."): ');
  const lines = createInterface({ input: process.stdin, terminal: false });
  return new Promise((resolve) => {
    let answered = false;
    lines.once('line', (line) => {
      answered = true;
      lines.close();
      resolve(line.trim());
    });
    lines.once('close', () => {
      if (!answered) resolve(undefined);
    });
  });
}

/** Runs the command; resolves with the exit code. */
export async function runProvisionCli(argv: readonly string[]): Promise<number> {
  let options;
  let row: FleetRow | undefined;
  let caCert: string | undefined;
  try {
    options = parseProvisionOptions(argv, process.env, (p) => readFileSync(p, 'utf8'));
    if (options.help) {
      process.stdout.write(Usage + '\n');
      return 0;
    }
    if (options.fleetFile !== undefined) {
      try {
        row = nextRow(options.fleetFile);
      } catch (e) {
        if (isAgentError(e)) throw e;
        throw new Error(`--from-fleet ${options.fleetFile}: ${(e as { code?: string }).code ?? String(e)}`);
      }
    }
    if (options.caFile !== undefined) {
      try {
        caCert = readFileSync(options.caFile, 'utf8');
      } catch (e) {
        throw new Error(`--ca ${options.caFile}: ${(e as { code?: string }).code ?? String(e)}`);
      }
      if (!caCert.includes('-----BEGIN CERTIFICATE-----'))
        throw new Error(`--ca ${options.caFile}: not a PEM certificate`);
    }
  } catch (e) {
    process.stderr.write(`provision: ${e instanceof Error ? e.message : String(e)}\n`);
    return 2;
  }
  const code = options.code ?? (await askCode());
  if (code === undefined || code === '') {
    process.stderr.write('provision: no setup code: give --code CODE or type it when asked\n');
    return 2;
  }
  const deviceKey = row?.key ?? (options.device as string);
  const token = row?.token ?? (options.token as string);
  try {
    const result = await provision({
      board: options.board,
      code,
      timeoutMs: options.timeoutMs,
      settings: {
        serviceUrl: options.service,
        deviceKey,
        token,
        ...(options.ssid === undefined ? {} : { ssid: options.ssid }),
        ...(options.password === undefined ? {} : { password: options.password }),
        ...(caCert === undefined ? {} : { caCert }),
      },
    });
    process.stdout.write(`board ${options.board}: ${result.line}\n`);
    if (result.status !== 200) return 1;
    const at = new Date().toISOString();
    if (row !== undefined && options.fleetFile !== undefined) markUsed(options.fleetFile, row, at);
    // The service learns of it (decisions 8): the device's property `provisioned-at`, set with its own token.
    const http = new FetchHttp({ timeoutMs: 10_000, ...(caCert === undefined ? {} : { tls: { ca: caCert } }) });
    await recordProvisioning(http, { baseUrl: options.service, device: deviceKey, token }, at).catch((e: unknown) =>
      process.stderr.write(
        `provision: provisioned, but the service did not record it: ${e instanceof Error ? e.message : String(e)}\n`,
      ),
    );
    return 0;
  } catch (e) {
    process.stderr.write(`provision: ${e instanceof Error ? e.message : String(e)}\n`);
    return 1;
  }
}

process.exitCode = await runProvisionCli(process.argv.slice(2));
