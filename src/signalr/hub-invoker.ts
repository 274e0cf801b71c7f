/**
 * The device's own invocations on the hub (spec 4.8), awaiting their
 * Completion: string ids counting up from "0", each with its own timeout,
 * bounded in number and in record bytes. A Completion `error` rejects with its
 * text (AgentError `hub`); a `null` or absent result is success. Every pending
 * invocation fails when the connection drops (`network`) or the client stops
 * (`closed`). `SetProperties` (properties.ts) is the one target the service
 * shows (decisions.md section 5).
 *
 * No board links this module: nothing on a board invokes the hub, so the
 * firmware's client only receives (hub-client.ts). Application code that does
 * creates a HubInvoker over the client (docs/realtime.md).
 */
import { AgentError } from '../errors.js';
import { optStr, str } from '../reader.js';
import type { Clock } from '../ports.js';
import { exceedsBytes } from '../utf8.js';
import { HubMessageType } from '../wire.js';
import type { HubClient } from './hub-client.js';
import { encodeRecord } from './record-codec.js';

export interface HubInvokerOptions {
  clock: Clock;
  /** Default timeout of one invocation. Default 30000. */
  timeoutMs?: number;
  /** Invocations awaiting a Completion at once. Default 32. */
  maxPending?: number;
  /** Largest outgoing record, separator included. Default 32768. */
  maxMessageBytes?: number;
}

/** Settles one invocation: with its result, or with an error (a string is the server's text). */
type Settle = (result: unknown, error?: AgentError | string | null) => void;

export class HubInvoker {
  #nextId = 0;
  readonly #pending = new Map<string, Settle>();
  readonly #client: HubClient;
  readonly #clock: Clock;
  readonly #timeoutMs: number;
  readonly #maxPending: number;
  readonly #maxBytes: number;

  /** Listens to the client: its Completions, and its state changes (a drop fails what is pending). */
  constructor(client: HubClient, options: HubInvokerOptions) {
    this.#client = client;
    this.#clock = options.clock;
    this.#timeoutMs = options.timeoutMs ?? 30000;
    this.#maxPending = options.maxPending ?? 32;
    this.#maxBytes = options.maxMessageBytes ?? 32768;
    client.listen((event, error) => {
      // A malformed Completion throws wire.invalid: the client logs it.
      if (typeof event === 'object') {
        if (event.type === HubMessageType.completion)
          this.#settle(str(event['invocationId'], 'invocationId'), event['result'], optStr(event['error'], 'error'));
      } else if (event !== 'connected') {
        const lost = error?.code === 'closed' ? error : new AgentError('network', 'hub: lost', { cause: error });
        for (const id of [...this.#pending.keys()]) this.#settle(id, null, lost);
      }
    });
  }

  /**
   * Invokes `target` and resolves with the Completion's result (`null` when
   * absent). Rejects with `network` (not connected, or a drop), `too-large`,
   * `overflow`, `timeout`, `closed` (stopped) or `hub` (the Completion's error).
   */
  invoke(target: string, args: readonly unknown[], timeoutMs = this.#timeoutMs): Promise<unknown> {
    return new Promise((resolve, reject) => {
      if (this.#pending.size >= this.#maxPending) {
        throw new AgentError('overflow', `hub: ${this.#maxPending} invocations pending`);
      }
      const id = String(this.#nextId++);
      const record = encodeRecord({ type: HubMessageType.invocation, invocationId: id, target, arguments: args });
      if (exceedsBytes(record, this.#maxBytes))
        throw new AgentError('too-large', `hub: message over ${this.#maxBytes} B`);
      const client = this.#client;
      if (client.status !== 'connected' || !client.write(record)) throw new AgentError('network', 'hub: not sent');
      const clock = this.#clock;
      const timer = clock.setTimer(
        () => this.#settle(id, null, new AgentError('timeout', `hub: ${target} unanswered in ${timeoutMs} ms`)),
        timeoutMs,
      );
      this.#pending.set(id, (result, error) => {
        clock.clearTimer(timer);
        if (typeof error === 'string') reject(new AgentError('hub', `hub: ${target}: ${error}`));
        else if (error) reject(error);
        else resolve(result ?? null);
      });
    });
  }

  /** Settles invocation `id`; a late or unknown id is ignored. */
  #settle(id: string, result: unknown, error?: AgentError | string | null): void {
    const settle = this.#pending.get(id);
    this.#pending.delete(id);
    settle?.(result, error);
  }
}
