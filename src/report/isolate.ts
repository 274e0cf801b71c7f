/**
 * Finding the records a service refuses inside a batch it refused whole (400 or
 * 422 with no record of a removed channel in it), so that a refused batch never
 * takes valid records down with it. The batch is halved and each half sent in
 * order; a refused half is halved again, down to single records, which are
 * dropped. One bad record among n costs about 2 x log2(n) requests, and records
 * keep their order.
 *
 * What has been delivered or dropped leaves the batch at once (`remaining`), so
 * a network failure midway leaves only the records not yet delivered queued;
 * that failure is rethrown for the sender's ordinary retry.
 */
import { toAgentError, type AgentError } from '../errors.js';

export interface IsolationIo {
  /** Sends one JSON array of records; rejects with the service's answer. */
  post(json: string): Promise<void>;
  /** The records still to deliver, after each step; count 0 when done. */
  remaining(json: string, count: number): void;
  /** A chunk of `count` records was accepted. */
  delivered(count: number): void;
  /** A single record the service refuses on its own. */
  dropped(record: string, error: AgentError): void;
}

/** Whether an answer refuses the request's content (as opposed to a failure of the network or the service). */
export function refusesContent(error: AgentError): boolean {
  return error.code === 'http.status' && (error.status === 400 || error.status === 422);
}

/**
 * Delivers `records` (each one record's JSON text) around the ones refused.
 * The caller has already seen the whole batch refused; it must hold at least two records.
 */
export async function isolateRefused(records: readonly string[], io: IsolationIo): Promise<void> {
  const pending: string[][] = halves(records);
  while (pending.length > 0) {
    const chunk = pending.shift()!;
    try {
      await io.post(`[${chunk.join(',')}]`);
      io.delivered(chunk.length);
    } catch (e) {
      const error = toAgentError(e);
      if (!refusesContent(error)) throw error;
      if (chunk.length > 1) {
        pending.unshift(...halves(chunk));
        continue;
      }
      io.dropped(chunk[0]!, error);
    }
    let count = 0;
    for (const part of pending) count += part.length;
    io.remaining(`[${pending.map((part) => part.join(',')).join(',')}]`, count);
  }
}

function halves(records: readonly string[]): string[][] {
  const middle = Math.ceil(records.length / 2);
  return [records.slice(0, middle), records.slice(middle)];
}
