/**
 * The glue between the hub client and the agent (docs/realtime.md "In the agent",
 * decisions.md section 5): `Notify` states → `applyDesired` for each `.desired`
 * record, in order; `Notify` properties → `updateProperties(values, false)`;
 * every connect and reconnect → `resyncDesired()`, and every reconnect →
 * `hubReconnected()` (the configuration is re-read); `setProperties` for
 * application code, whose Completion result becomes the property set.
 * Desired records wait in a bounded queue; on overflow the record is dropped,
 * counted, and a resync is queued so the latest desired value still arrives.
 *
 * The `Notify` argument (decisions.md section 5) is validated here:
 * `{type:"states", entity, states:[State record]}` yields the `.desired` records
 * (channel `<product_uid>:<key>.desired`, timestamp Unix seconds → ms);
 * `{type:"properties", entity, values}` the changed properties. `.reported`
 * records and other `type`s are skipped; a malformed argument is logged and
 * dropped whole.
 */
import type { DesiredRecord, DesiredStateSink } from '../agent/desired.js';
import type { Value } from '../agent/driver.js';
import { asArray, asObject, optString, reqNumber, reqString } from '../reader.js';
import { AgentError, toAgentError } from '../errors.js';
import type { Logger } from '../ports.js';
import { Hub, StateSide } from '../wire.js';
import type { HubClient } from './hub-client.js';

function isValue(v: unknown): v is Value {
  return typeof v === 'boolean' || typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v));
}

/** Validates a property object (values boolean, number or string). */
function parseProperties(value: unknown, field: string): Record<string, Value> {
  const o = asObject(value, field);
  for (const name in o) {
    if (!isValue(o[name])) throw new AgentError('wire.invalid', `${field}.${name}: not a boolean, number or string`);
  }
  return { ...(o as Record<string, Value>) };
}

/** The `.desired` records of a states Notify (`<product_uid>:<key>.desired` → `<key>`). */
function parseDesired(states: unknown): DesiredRecord[] {
  const desired: DesiredRecord[] = [];
  for (const state of asArray(states, 'states')) {
    const o = asObject(state, 'states[]');
    const channel = reqString(o, 'channel');
    const key = channel.slice(channel.indexOf(':') + 1, -StateSide.desired.length);
    if (!channel.endsWith(StateSide.desired) || key === '') continue;
    const value = o['value'];
    if (!isValue(value)) throw new AgentError('wire.invalid', `Notify state ${key}.desired: not a state value`);
    desired.push({ key, value, timestampMs: Math.round(reqNumber(o, 'timestamp', { min: 0 }) * 1000) });
  }
  return desired;
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
  #maxQueued: number;
  #unsubscribe: (() => void)[];

  readonly #client: HubClient;
  readonly #sink: DesiredStateSink;
  readonly #logger: Logger;
  readonly #options: AgentLinkOptions;

  constructor(client: HubClient, sink: DesiredStateSink, logger: Logger, options: AgentLinkOptions = {}) {
    this.#client = client;
    this.#sink = sink;
    this.#logger = logger;
    this.#options = options;
    this.#maxQueued = options.maxQueued ?? 64;
    this.#unsubscribe = [
      client.on(Hub.notify, (args) => this.#notified(args)),
      client.onStateChange((kind) => kind === 'connected' && this.#connected()),
    ];
  }

  /**
   * Sets properties of this device through the hub (`SetProperties`); the
   * Completion's result, the whole property object, replaces the agent's set.
   * Rejects like `HubClient.invoke`, or with `wire.invalid` for a bad result.
   */
  async setProperties(values: Readonly<Record<string, Value>>): Promise<Record<string, Value>> {
    const result = await this.#client.invoke(Hub.setProperties, [{ values }]);
    const properties = parseProperties(result, 'SetProperties result');
    this.#guard('updateProperties', () => this.#sink.updateProperties(properties, true));
    return properties;
  }

  /** Detaches from the client. */
  close(): void {
    for (const off of this.#unsubscribe) off();
  }

  /** Resolves once every queued desired record and resync has run. */
  idle(): Promise<void> {
    return this.#tail;
  }

  #connected(): void {
    this.#resync();
    if (this.#connectedBefore) this.#guard('hubReconnected', () => this.#sink.hubReconnected?.());
    this.#connectedBefore = true;
  }

  #notified(args: readonly unknown[]): void {
    const device = this.#options.deviceUid;
    for (const arg of args) {
      try {
        const o = asObject(arg, 'Notify argument');
        const type = optString(o, 'type');
        const entity = optString(o, 'entity');
        if (device !== undefined && entity !== undefined && entity !== device) continue;
        if (type === Hub.notifyProperties) {
          const values = parseProperties(o['values'], 'values');
          this.#guard('updateProperties', () => this.#sink.updateProperties(values, false));
        } else if (type === Hub.notifyStates) {
          for (const record of parseDesired(o['states'])) this.#apply(record);
        }
      } catch (e) {
        this.#logger.log('warn', 'hub: Notify dropped', { reason: toAgentError(e).message });
      }
    }
  }

  #apply(record: DesiredRecord): void {
    if (this.#queued >= this.#maxQueued) {
      this.dropped++;
      this.#logger.log('warn', 'hub: desired queue full; record dropped, resync queued', { key: record.key });
      this.#resync();
      return;
    }
    this.#enqueue(() => this.#sink.applyDesired(record));
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
    const run = async (): Promise<void> => {
      try {
        await task();
      } catch (e) {
        this.#logger.log('warn', 'hub: desired sync failed; retried on the next connect', {
          reason: toAgentError(e).message,
        });
      } finally {
        this.#queued--;
      }
    };
    this.#tail = this.#tail.then(run);
  }

  #guard(what: string, fn: () => void): void {
    try {
      fn();
    } catch (e) {
      this.#logger.log('error', `hub: sink ${what} failed`, { reason: toAgentError(e).message });
    }
  }
}
