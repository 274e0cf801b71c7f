/**
 * The hub connection of the agent (docs/realtime.md "In the agent", decisions.md
 * section 5): `linkAgent` is the glue between a HubClient and the agent;
 * `startAgentHub` is the one wiring of both targets (a client for the agent's
 * service, its link, and the redaction of the connection tokens a negotiate
 * hands out), which differ only in their sockets.
 *
 * The link: `Notify` states → `applyDesired` for each `.desired` record, in
 * order; every connect and reconnect → `resyncDesired()`, and every reconnect →
 * `hubReconnected()` (the configuration is re-read). Desired records wait in a
 * bounded queue; on overflow the record is dropped, counted, and a resync is
 * queued so the latest desired value still arrives.
 *
 * The `Notify` argument is validated here: `{type:"states", entity,
 * states:[State record]}` yields the `.desired` records, oldest first, read by
 * the agent's own reader (desired.ts: the same as the resync's; `.reported` and
 * malformed records are skipped); `{type:"properties", entity, values}` goes to
 * the `properties` receiver where a host keeps properties (properties.ts; a
 * board has none, and skips it like any other `type`). A malformed argument
 * (not an object, `states` not an array, a bad property) is logged and dropped.
 */
import { parseDesiredRecords, type DesiredRecord, type DesiredStateSink } from '../agent/desired.js';
import { logFailure, warn } from '../errors.js';
import type { RedactingLogger } from '../log/redact.js';
import type { Logger } from '../ports.js';
import { asObject } from '../reader.js';
import { Hub, HubMessageType } from '../wire.js';
import { HubClient } from './hub-client.js';
import type { HubClientOptions } from './options.js';

/** What the link drives: the agent's desired side (properties go to `properties`). */
export type DesiredSink = Omit<DesiredStateSink, 'updateProperties'>;

export interface AgentLinkOptions {
  /** This device's uid: Notify messages for other entities are ignored (admin connections see all). */
  deviceUid?: string | undefined;
  /** Desired records waiting to be applied. Default 64. */
  maxQueued?: number;
  /** Receives a `properties` Notify's `values` (a throw drops it, logged). Default: skipped. */
  properties?: ((values: unknown) => void) | undefined;
}

export interface AgentLink {
  /** Desired records dropped because the queue was full (a resync followed). */
  readonly dropped: number;
  /** Resolves once every queued desired record and resync has run. */
  idle(): Promise<void>;
  /** Detaches from the client. */
  close(): void;
}

/**
 * Targets match case-insensitively, like the official clients (without a pattern: one made at the module's top
 * level is preloaded into flash on a board, url.ts says why that is avoided).
 */
const lower = (name: string): string => name.toLowerCase();

/** Links `client` to `sink`: Notify in, resync on every connect. */
export function linkAgent(
  client: HubClient,
  sink: DesiredSink,
  logger: Logger,
  options: AgentLinkOptions = {},
): AgentLink {
  const { deviceUid, properties, maxQueued = 64 } = options;
  let dropped = 0;
  let queued = 0;
  let tail = Promise.resolve();
  let resyncQueued = false;
  let connectedBefore = false;

  const enqueue = (task: () => Promise<void>): void => {
    queued++;
    tail = tail
      .then(task)
      .catch((e: unknown) => logFailure(logger, 'warn', 'hub: desired sync failed', e))
      .finally(() => queued--);
  };
  /** Queues one resync (deduplicated; allowed past the bound, so it is never lost). */
  const resync = (): void => {
    if (resyncQueued) return;
    resyncQueued = true;
    enqueue(() => {
      resyncQueued = false;
      return sink.resyncDesired();
    });
  };
  const apply = (record: DesiredRecord): void => {
    if (queued < maxQueued) return enqueue(() => sink.applyDesired(record));
    dropped++;
    // Once per resync: the flood that follows is the same overflow.
    if (!resyncQueued) warn(logger, 'hub: desired queue full', { key: record.key });
    resync();
  };
  const notified = (args: readonly unknown[]): void => {
    for (const arg of args) {
      try {
        const { entity, type, states, values } = asObject(arg, 'Notify');
        if (deviceUid !== undefined && entity !== undefined && entity !== deviceUid) continue;
        if (type === Hub.notifyStates) for (const record of parseDesiredRecords(states).records) apply(record);
        else if (type === Hub.notifyProperties) properties?.(values);
      } catch (e) {
        logFailure(logger, 'warn', 'hub: Notify dropped', e);
      }
    }
  };

  const unsubscribe = client.listen((event) => {
    if (typeof event === 'object') {
      if (event.type === HubMessageType.invocation && lower(event.target) === lower(Hub.notify))
        notified(event.arguments);
    } else if (event === 'connected') {
      resync();
      // A throwing sink is logged by the client's listener guard.
      if (connectedBefore) sink.hubReconnected?.();
      connectedBefore = true;
    }
  });
  return {
    get dropped() {
      return dropped;
    },
    idle: () => tail,
    close: unsubscribe,
  };
}

/** The hub client's options (`retry`: tests use a short one), the agent, its token and its properties. */
export interface AgentHubOptions extends Pick<HubClientOptions, 'baseUrl' | 'http' | 'sockets' | 'clock' | 'retry'> {
  /** The agent (its `device` is read for the uid Notify messages are filtered on). */
  agent: DesiredSink & { readonly device: { uid: string } | undefined };
  /** The configured access token (the caller keeps it redacted). */
  token: string;
  logger: RedactingLogger;
  /** Receives pushed properties (a host that keeps them: `notifiedProperties(agent)`, properties.ts). */
  properties?: ((values: unknown) => void) | undefined;
}

/** The started connection: `hub.stop()` ends it for good (the link hears nothing after `stopped`). */
export interface AgentHub {
  hub: HubClient;
}

/** Builds the hub connection and the link, and starts connecting. */
export function startAgentHub(options: AgentHubOptions): AgentHub {
  const { agent, logger } = options;
  let previous = '';
  // The client reads its own options; the others ride along unread.
  const hub = new HubClient({
    ...options,
    accessToken: () => options.token,
    // Connection tokens are secrets too; single-use, so only the current one is kept.
    onSecret: (token) => {
      logger.removeSecret(previous);
      logger.addSecret((previous = token));
    },
  });
  linkAgent(hub, agent, logger, { deviceUid: agent.device?.uid, properties: options.properties });
  hub.start();
  return { hub };
}
