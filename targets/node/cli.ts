/**
 * The agent's command line, shared by `npm run agent` (main.ts: the Node
 * target alone, real serial ports) and `npm run device` (the simulator plugs
 * its hardware in). Runs the agent against any Device Data Service, logs a
 * status line every 10 s, and stops cleanly on SIGINT/SIGTERM (open batches go
 * to the outbox, which `--store` keeps for the next run). Exit codes: 0 after
 * a clean stop or --help, 1 when the agent cannot start, 2 for bad options.
 */
import { readFileSync } from 'node:fs';
import { isAgentError } from '../../src/errors.js';
import { RedactingLogger } from '../../src/log/redact.js';
import type { HardwarePlug } from './hardware.js';
import { crashReport } from './logger.js';
import { parseOptions, tokensInArgs, usage, type CommandInfo } from './options.js';
import { startNodeAgent } from './runtime.js';

export interface AgentCli {
  command: CommandInfo;
  hardware?: HardwarePlug;
}

/** Runs the agent command until a signal; resolves with the exit code. */
export async function runAgentCli(argv: readonly string[], cli: AgentCli): Promise<number> {
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
  // Listening before the start: a signal during the first configuration attempt still stops cleanly.
  const stopped = new Promise<void>((resolve) => {
    const stop = (): void => resolve();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  let runtime;
  try {
    runtime = await startNodeAgent(options, cli.hardware === undefined ? {} : { hardware: cli.hardware });
  } catch (e) {
    process.stderr.write(redact(`agent: ${e instanceof Error ? e.message : String(e)}`) + '\n');
    return isAgentError(e, 'config.invalid') ? 2 : 1;
  }
  const { agent, logger } = runtime;
  redact = (text) => logger.redact(early.redact(text));
  if (options.tokenOnCommandLine) {
    logger.log(
      'warn',
      '--token on the command line is visible to other users (ps, npm banner); use DDS_TOKEN or --token-file',
    );
  }
  runtime.properties.onChange((_all, changed) => logger.log('info', 'properties changed', changed));
  runtime.custom.onDesired((key, value) => logger.log('info', 'custom channel set by a desired value', { key, value }));
  const status = setInterval(() => {
    const c = agent.counters;
    logger.log('info', 'status', {
      online: agent.online,
      channels: agent.channelKeys.length,
      sampled: c.sampled,
      reported: c.reported,
      sent: c.sent,
      queued: c.queued,
      dropped: c.dropped,
    });
  }, 10000);
  await stopped;
  clearInterval(status);
  runtime.stop();
  logger.log('info', 'stopped', { queued: agent.counters.queued });
  return 0;
}
