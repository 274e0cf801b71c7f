/**
 * The Node composition root: `npm run agent -- --service URL --device KEY
 * --token TOKEN [--store DIR] [--scenario FILE] [--config FILE]`. Runs the
 * agent as a simulated device against any Device Data Service, logs a status
 * line every 10 s, and stops cleanly on SIGINT/SIGTERM (open batches go to the
 * outbox, which `--store` keeps for the next run).
 */
import { readFileSync } from 'node:fs';
import { isAgentError } from '../../src/errors.js';
import { RedactingLogger } from '../../src/log/redact.js';
import { crashReport } from './logger.js';
import { parseOptions, tokensInArgs, usage } from './options.js';
import { startNodeAgent } from './runtime.js';

/** Secrets known before the runtime exists (issue 8); the runtime's logger adds connection tokens. */
const early = new RedactingLogger({ log: () => undefined });
for (const token of tokensInArgs(process.argv.slice(2), process.env)) early.addSecret(token);
let redact = (text: string): string => early.redact(text);

function crash(what: string, e: unknown): void {
  process.stderr.write(crashReport(what, e, redact) + '\n');
  process.exit(1);
}
process.on('uncaughtException', (e) => crash('uncaught exception', e));
process.on('unhandledRejection', (e) => crash('unhandled rejection', e));

async function main(): Promise<number> {
  let options;
  try {
    options = parseOptions(process.argv.slice(2), process.env, (p) => readFileSync(p, 'utf8'));
  } catch (e) {
    process.stderr.write(redact(`${isAgentError(e) ? e.message : String(e)}`) + '\n');
    return 2;
  }
  early.addSecret(options.token);
  if (options.help) {
    process.stdout.write(usage() + '\n');
    return 0;
  }
  let runtime;
  try {
    runtime = await startNodeAgent(options);
  } catch (e) {
    process.stderr.write(redact(`agent: ${e instanceof Error ? e.message : String(e)}`) + '\n');
    return 1;
  }
  const { agent, logger } = runtime;
  redact = (text) => logger.redact(early.redact(text));
  agent.onProperties((_all, changed) => logger.log('info', 'properties changed', changed));
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
  await new Promise<void>((resolve) => {
    const stop = (): void => resolve();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  clearInterval(status);
  runtime.stop();
  logger.log('info', 'stopped', { queued: agent.counters.queued });
  return 0;
}

main().then(
  (code) => process.exit(code),
  (e: unknown) => crash('failed', e),
);
