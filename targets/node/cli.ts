/**
 * The agent's command line, shared by `npm run agent` (main.ts: the Node
 * target alone, real serial ports) and `npm run device` (the simulator plugs
 * its hardware in). Runs the agent against any Device Data Service and shows
 * what it does: a status line redrawn in place on a terminal (status-line.ts),
 * else an `info status` log line every 10 s. On SIGINT/SIGTERM it stops
 * sampling, delivers what is queued for up to `drainMs` while the service takes
 * it, then stops: what is left goes to the outbox, which `--store` keeps for
 * the next run; without one, the lost records are counted in a warning.
 * `--exit-on-auth-failure`: a refused token or an unknown device (the agent's
 * `onRefused`) ends the run. Exit codes: 0 after a clean stop or --help, 1 when
 * the agent cannot start or the service refused it, 2 for bad options.
 */
import { readFileSync } from 'node:fs';
import { isAgentError } from '../../src/errors.js';
import { RedactingLogger } from '../../src/log/redact.js';
import type { HardwarePlug } from './hardware.js';
import { ConsoleLogger, crashReport } from './logger.js';
import { parseOptions, tokensInArgs, usage, type CommandInfo } from './options.js';
import { StatusLine, statusText } from './status-line.js';

/** How long a stop waits for the queue to be delivered, ms. */
export const drainMs = 3000;

export interface AgentCli {
  command: CommandInfo;
  hardware?: HardwarePlug;
}

/** Runs the agent command until a signal; resolves with the exit code. */
export async function runAgentCli(argv: readonly string[], cli: AgentCli): Promise<number> {
  let onRefused: ((status: number) => void) | undefined;
  // Secrets known before the runtime exists; the runtime's logger adds connection tokens.
  const early = new RedactingLogger({ log: () => undefined });
  for (const token of tokensInArgs(argv, process.env)) early.addSecret(token);
  let redact = (text: string): string => early.redact(text);
  const crash = (what: string, e: unknown): void => {
    process.stderr.write(crashReport(what, e, redact) + '\n');
    process.exit(1);
  };
  process.on('uncaughtException', (e) => crash('uncaught exception', e));
  process.on('unhandledRejection', (e) => crash('unhandled rejection', e));

  let options;
  try {
    options = parseOptions(argv, process.env, (p) => readFileSync(p, 'utf8'), cli.command);
  } catch (e) {
    process.stderr.write(redact(`${isAgentError(e) ? e.message : String(e)}`) + '\n');
    return 2;
  }
  early.addSecret(options.token);
  if (options.help) {
    process.stdout.write(usage(cli.command) + '\n');
    return 0;
  }
  // Listening before the start: a signal during the first configuration attempt still stops cleanly. A second
  // signal while the queue is delivered ends the process at once (the default action, the handler being gone).
  let refusedStatus: number | undefined;
  const stopped = new Promise<void>((resolve) => {
    const stop = (): void => resolve();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    if (options.values['exit-on-auth-failure'] !== undefined) {
      onRefused = (status) => {
        refusedStatus = status;
        resolve();
      };
    }
  });
  const line = new StatusLine(process.stderr);
  const logger = new ConsoleLogger(options.logLevel, (text) => line.print(text));
  let runtime;
  try {
    // Loaded after the options are read: `--help` and a bad option answer without loading the agent.
    const { startNodeAgent } = await import('./runtime.js');
    runtime = await startNodeAgent(options, {
      logger,
      agent: { onRefused: (status) => onRefused?.(status) },
      ...(cli.hardware === undefined ? {} : { hardware: cli.hardware }),
    });
  } catch (e) {
    process.stderr.write(redact(`agent: ${e instanceof Error ? e.message : String(e)}`) + '\n');
    return isAgentError(e, 'config.invalid') ? 2 : 1;
  }
  const { agent } = runtime;
  redact = (text) => runtime.logger.redact(early.redact(text));
  if (options.tokenOnCommandLine) {
    runtime.logger.log(
      'warn',
      '--token on the command line is visible to other users (ps, npm banner); use DDS_TOKEN or --token-file',
    );
  }
  const log = runtime.logger;
  runtime.properties.onChange((_all, changed) => log.log('info', 'properties changed', changed));
  runtime.custom.onDesired((key, value) => log.log('info', 'custom channel set by a desired value', { key, value }));
  const hub = runtime.hub;
  const status = (): Parameters<typeof statusText>[0] => ({
    online: agent.online,
    hub: hub?.status ?? 'off',
    channels: agent.channelKeys.length,
    counters: agent.counters,
  });
  let ticks = 0;
  const timer = setInterval(() => {
    if (line.active) return line.show(statusText(status()));
    if (++ticks % 10 !== 0) return;
    const { online, channels, counters: c } = status();
    const fields = { online, channels, sampled: c.sampled, reported: c.reported, sent: c.sent, queued: c.queued };
    log.log('info', 'status', { ...fields, dropped: c.dropped });
  }, 1000);
  await stopped;
  clearInterval(timer);
  const left = await agent.drain(drainMs);
  runtime.stop();
  line.clear();
  if (refusedStatus !== undefined) {
    log.log('error', 'stopped: the service refused this device (--exit-on-auth-failure)', { status: refusedStatus });
    return 1;
  }
  if (options.store === undefined && left > 0) {
    log.log('warn', 'stopped; records lost, no --store to keep them', { lost: left });
  } else log.log('info', 'stopped', { queued: left });
  return 0;
}
