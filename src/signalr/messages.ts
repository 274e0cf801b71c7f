/**
 * The hub messages a device receives (spec 4.8, JSON hub protocol): one
 * validator from a record's text to a typed union, and the two fixed records it
 * sends. A device only receives Invocations, Completions, Pings and Close:
 * stream messages (2, 4, 5) and unknown types become `ignored`. Anything
 * malformed throws AgentError `wire.invalid`, which the client logs and drops.
 */
import { AgentError } from '../errors.js';
import { asArray, asObject, optBoolean, optString, reqString } from '../reader.js';
import { HubMessageType } from '../wire.js';
import { readJson } from './record-codec.js';

/** A server-to-client Invocation (`Notify`, ...). */
export interface InvocationMessage {
  kind: 'invocation';
  target: string;
  arguments: readonly unknown[];
  /** Present when the server expects a Completion. */
  invocationId: string | undefined;
}

/** The answer to one of our invocations: `error` set, or success with `result`. */
export interface CompletionMessage {
  kind: 'completion';
  invocationId: string;
  result: unknown;
  error: string | undefined;
}

export interface CloseMessage {
  kind: 'close';
  error: string | undefined;
  allowReconnect: boolean;
}

export type HubMessage =
  InvocationMessage | CompletionMessage | CloseMessage | { kind: 'ping' } | { kind: 'ignored'; type: unknown };

const ping: HubMessage = { kind: 'ping' };

/** The Ping record, encoded once (sent far more often than anything else). */
export const pingRecord = '{"type":6}\u001e';

/** The handshake request record. */
export const handshakeRecord = '{"protocol":"json","version":1}\u001e';

/** Validates one record's text (separator removed) into a HubMessage. */
export function parseHubMessage(text: string): HubMessage {
  // Pings are the most frequent record; skip JSON.parse for the canonical form.
  if (text === '{"type":6}') return ping;
  const o = asObject(readJson(text, 'hub message'), 'hub message');
  switch (o['type']) {
    case HubMessageType.invocation:
      return {
        kind: 'invocation',
        target: reqString(o, 'target'),
        arguments: asArray(o['arguments'], 'arguments'),
        invocationId: optString(o, 'invocationId'),
      };
    case HubMessageType.completion:
      return {
        kind: 'completion',
        invocationId: reqString(o, 'invocationId'),
        result: o['result'],
        error: optString(o, 'error'),
      };
    case HubMessageType.ping:
      return ping;
    case HubMessageType.close:
      return { kind: 'close', error: optString(o, 'error'), allowReconnect: optBoolean(o, 'allowReconnect') === true };
    default:
      if (typeof o['type'] !== 'number') throw new AgentError('wire.invalid', 'hub message: type is not a number');
      return { kind: 'ignored', type: o['type'] };
  }
}

/**
 * Validates the handshake answer: `{}` accepts; `{error}` refuses with its text
 * (AgentError `hub`). Unknown fields are ignored.
 */
export function parseHandshake(text: string): void {
  const error = optString(asObject(readJson(text, 'handshake'), 'handshake'), 'error');
  if (error !== undefined) throw new AgentError('hub', `handshake refused: ${error}`);
}
