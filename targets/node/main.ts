/**
 * The Node composition root: `npm run agent -- --service URL --device KEY
 * --token TOKEN [--store DIR] [--scenario FILE] [--config FILE]`. Runs the
 * agent as a simulated device against any Device Data Service, logs a status
 * line every 10 s, and stops cleanly on SIGINT/SIGTERM (open batches go to the
 * outbox, which `--store` keeps for the next run).
 */
import { readFileSync } from 'node:fs';
import { isAgentError } from '../../src/errors.js';
import { parseOptions, usage } from './options.js';
import { startNodeAgent } from './runtime.js';

async function main(): Promise<number> {
  let options;
  try {
    options = parseOptions(process.argv.slice(2), process.env, (p) => readFileSync(p, 'utf8'));
  } catch (e) {
    process.stderr.write(`${isAgentError(e) ? e.message : String(e)}\n`);
    return 2;
  }
  if (options.help) {
    process.stdout.write(usage() + '\n');
    return 0;
  }
  let runtime;
  try {
    runtime = await startNodeAgent(options);
  } catch (e) {
    process.stderr.write(`agent: ${e instanceof Error ? e.message : String(e)}\n`);
    return 1;
  }
  const { agent, logger } = runtime;
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
  (e: unknown) => {
    process.stderr.write(`agent: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    process.exit(1);
  },
);
