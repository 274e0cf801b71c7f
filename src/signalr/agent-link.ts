/**
 * The glue between the hub client and the agent (docs/realtime.md "In the agent",
 * decisions.md section 5): `Notify` states → `applyDesired` for each `.desired`
 * record, in order; `Notify` properties → `updateProperties(values, false)`;
 * every connect and reconnect → `resyncDesired()`, and every reconnect →
 * `hubReconnected()` (the configuration is re-read). (`SetProperties`, for
 * application code, is hub-invoker.ts.)
 * Desired records wait in a bounded queue; on overflow the record is dropped,
 * counted, and a resync is queued so the latest desired value still arrives.
 *
 * The `Notify` argument (decisions.md section 5) is validated here:
 * `{type:"states", entity, states:[State record]}` yields the `.desired` records,
 * oldest first, read by the agent's own reader (desired.ts: the same as the
 * resync's; `.reported` and malformed records are skipped);
 * `{type:"properties", entity, values}` the changed properties (kept only where
 * a host plugs in AgentOptions.properties). Other `type`s are skipped; a
 * malformed argument (not an object, `states` not an array, a bad property) is
 * logged and dropped whole.
 */
import { parseDesiredRecords, type DesiredRecord, type DesiredStateSink } from '../agent/desired.js';
import type { Value } from '../agent/driver.js';
import { asObject, scalar } from '../reader.js';
import { toAgentError } from '../errors.js';
import type { Logger } from '../ports.js';
import { Hub } from '../wire.js';
import type { HubClient } from './hub-client.js';

/** Targets match case-insensitively, like the official clients. */
const notify = Hub.notify.toLowerCase();

/** Validates a property object (values boolean, number or string). */
export function parseProperties(value: unknown, field: string): Record<string, Value> {
  const o = asObject(value, field);
  for (const name in o) scalar(o[name], `${field}.${name}`);
  return { ...(o as Record<string, Value>) };
}

export interface AgentLinkOptions {
  /** This device's uid: Notify messages for other entities are ignored (admin connections see all). */
  deviceUid?: string;
  /** Desired records waiting to be applied. Default 64. */
  maxQueued?: number;
}

export class HubAgentLink {
  /** Desired records dropped because the queue was full (a resync followed). */
  dropped = 0;
  #queued = 0;
  #tail: Promise<void> = Promise.resolve();
  #resyncQueued = false;
  #connectedBefore = false;
  readonly #sink: DesiredStateSink;
  readonly #logger: Logger;
  readonly #deviceUid: string | undefined;
  readonly #maxQueued: number;
  readonly #client: HubClient;
  readonly #unsubscribe: () => void;

  constructor(client: HubClient, sink: DesiredStateSink, logger: Logger, options: AgentLinkOptions = {}) {
    this.#sink = sink;
    this.#logger = logger;
    this.#deviceUid = options.deviceUid;
    this.#maxQueued = options.maxQueued ?? 64;
    this.#client = client;
    client.onInvocation = (target, args) => void (target.toLowerCase() === notify && this.#notified(args));
    this.#unsubscribe = client.onStateChange((kind) => kind === 'connected' && this.#connected());
  }

  /** Detaches from the client. */
  close(): void {
    this.#client.onInvocation = undefined;
    this.#unsubscribe();
  }

  /** Resolves once every queued desired record and resync has run. */
  idle(): Promise<void> {
    return this.#tail;
  }

  #connected(): void {
    this.#resync();
    // A throwing sink is logged by the client's listener guard.
    if (this.#connectedBefore) this.#sink.hubReconnected?.();
    this.#connectedBefore = true;
  }

  #notified(args: readonly unknown[]): void {
    const device = this.#deviceUid;
    for (const arg of args) {
      try {
        const o = asObject(arg, 'Notify');
        const entity = o['entity'];
        if (device !== undefined && entity !== undefined && entity !== device) continue;
        if (o['type'] === Hub.notifyProperties)
          this.#sink.updateProperties(parseProperties(o['values'], 'values'), false);
        else if (o['type'] === Hub.notifyStates)
          for (const record of parseDesiredRecords(o['states']).records) this.#apply(record);
      } catch (e) {
        this.#logger.log('warn', 'hub: Notify dropped', { reason: toAgentError(e).message });
      }
    }
  }

  #apply(record: DesiredRecord): void {
    if (this.#queued < this.#maxQueued) return this.#enqueue(() => this.#sink.applyDesired(record));
    this.dropped++;
    // Once per resync: the flood that follows is the same overflow.
    if (!this.#resyncQueued) this.#logger.log('warn', 'hub: desired queue full', { key: record.key });
    this.#resync();
  }

  /** Queues one resync (deduplicated; allowed past the bound, so it is never lost). */
  #resync(): void {
    if (this.#resyncQueued) return;
    this.#resyncQueued = true;
    this.#enqueue(() => {
      this.#resyncQueued = false;
      return this.#sink.resyncDesired();
    });
  }

  #enqueue(task: () => Promise<void>): void {
    this.#queued++;
    this.#tail = this.#tail.then(async () => {
      try {
        await task();
      } catch (e) {
        this.#logger.log('warn', 'hub: desired sync failed', { reason: toAgentError(e).message });
      } finally {
        this.#queued--;
      }
    });
  }
}
