/**
 * The end of a fleet device's run (device.ts): what is left in a stopped
 * agent's outbox is delivered without sampling, by the agent's own sender code
 * over that outbox, until the outbox is empty or the drain's time is up; what
 * is still queued then is written to the store and counted as undelivered.
 * The drain's deliveries are added to the device's counters of earlier lives.
 */
import type { Agent } from '../../src/agent/agent.js';
import { createCounters, type AgentCounters } from '../../src/agent/counters.js';
import type { Clock, Logger } from '../../src/ports.js';
import { Sender } from '../../src/report/sender.js';
import { fullJitter } from '../../src/retry/backoff.js';

function pause(clock: Clock, ms: number): Promise<void> {
  return new Promise((resolve) => clock.setTimer(resolve, ms));
}

/** Resolves once the agent (or `sender`) has no request out, or after `maxWaitMs`. */
export async function whenNotSending(clock: Clock, agent: Agent, maxWaitMs: number, sender?: Sender): Promise<void> {
  const deadline = clock.monotonicMs() + maxWaitMs;
  const sending = (): boolean => (sender?.current ?? agent.delivery) === 'sending';
  while (sending() && clock.monotonicMs() < deadline) await pause(clock, 10);
}

/**
 * Delivers the outbox of `agent` (stopped) for at most `maxWaitMs`; adds what it sent to `into`
 * (the counters of earlier lives) and resolves with the records still queued.
 */
export async function drainOutbox(
  agent: Agent,
  clock: Clock,
  logger: Logger,
  maxWaitMs: number,
  into: AgentCounters,
): Promise<number> {
  const stats = createCounters();
  const sender = new Sender(clock, agent.client, agent.outbox, fullJitter(1000, 5000), logger, stats);
  sender.kick();
  const deadline = clock.monotonicMs() + maxWaitMs;
  while (agent.outbox.records > 0 && clock.monotonicMs() < deadline) await pause(clock, 50);
  await whenNotSending(clock, agent, 5000, sender);
  sender.stop();
  agent.outbox.persist();
  into.sent += stats.sent;
  into.requests += stats.requests;
  into.failures += stats.failures;
  into.rejected += stats.rejected;
  into.queued = agent.outbox.records;
  into.queuedBytes = agent.outbox.bytes;
  return agent.outbox.records;
}
