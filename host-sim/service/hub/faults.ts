/**
 * Fault switches of the local hub, for tests of hub clients (issue 4, "The
 * local hub"). They are mutable and read at the moment of each action.
 */
export interface HubFaults {
  /** Send each outgoing WebSocket message as several fragmented frames. */
  fragmentFrames: boolean;
  /** Coalesce outgoing records into one WebSocket message where possible (e.g. handshake answer + next records). */
  batchRecords: boolean;
  /** Split each outgoing record across two WebSocket messages. */
  splitRecords: boolean;
  /** Send nothing at all (no pings, no answers): the client must time out. */
  silent: boolean;
  /** Negotiate and WebSocket upgrade answer this status. */
  refuseWith: 401 | 403 | null;
}

export function noFaults(): HubFaults {
  return { fragmentFrames: false, batchRecords: false, splitRecords: false, silent: false, refuseWith: null };
}
