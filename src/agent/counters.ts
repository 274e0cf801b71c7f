/**
 * The agent's counters (docs/agent.md: "the counters exposed"): plain numbers that
 * only grow, except the gauges `queued`, `queuedBytes` and `held`, which are
 * the current depths. Read them from `agent.counters`.
 */
export interface AgentCounters {
  /** Samples taken (every scan that produced a value or an error). */
  sampled: number;
  /** Records produced for the service (states and measurements) after transmit events. */
  reported: number;
  /** Records the service acknowledged. */
  sent: number;
  /** Gauge: records in the outbox now. */
  queued: number;
  /** Gauge: bytes in the outbox now. */
  queuedBytes: number;
  /** Gauge: records held because the wall time is not known yet. */
  held: number;
  /** Records dropped by an overflow (outbox or held buffer), oldest first. */
  dropped: number;
  /** Records lost because the store refused a batch (included in `dropped`). */
  lostToStore: number;
  /** Records the service refused as malformed (400, 413, 422): dropped, logged. */
  rejected: number;
  /** HTTP write requests that succeeded / failed. */
  requests: number;
  failures: number;
  /** Scans skipped because the channel's previous (async) sample had not finished. */
  overruns: number;
  /** Desired records applied, and ignored as older than the last applied. */
  desiredApplied: number;
  desiredIgnored: number;
}

/**
 * The counters read from the outbox and the reporter when a host asks (Agent.counters): the core
 * keeps none of them, so a board carries none.
 */
export type ReadOnAsk = 'queued' | 'queuedBytes' | 'held' | 'dropped';

/** What the core counts: every counter but those read on asking. */
export type CoreCounters = Omit<AgentCounters, ReadOnAsk>;

/** The core's counters, all 0. */
export function createCoreCounters(): CoreCounters {
  return {
    sampled: 0,
    reported: 0,
    sent: 0,
    lostToStore: 0,
    rejected: 0,
    requests: 0,
    failures: 0,
    overruns: 0,
    desiredApplied: 0,
    desiredIgnored: 0,
  };
}

/** Every counter, all 0 (a host's sums over runs). */
export function createCounters(): AgentCounters {
  return { ...createCoreCounters(), queued: 0, queuedBytes: 0, held: 0, dropped: 0 };
}
