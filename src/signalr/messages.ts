/**
 * The hub messages the client understands (spec 4.8, JSON hub protocol): one
 * validator from `unknown` to a typed union, and the outgoing message shapes.
 * Stream messages (2, 4, 5) and unknown types become `ignored`; anything
 * malformed throws AgentError `wire.invalid`, which the caller logs and drops.
 */
import { AgentError } from '../errors.js';
import { asArray, asObject, optBoolean, optString, reqString, type WireObject } from '../config/fields.js';
import { HubMessageType } from '../wire.js';

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

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new AgentError('wire.invalid', `hub record is not JSON (${text.length} chars)`, { cause: e });
  }
}

/** Validates one record's text (separator removed) into a HubMessage. */
export function parseHubMessage(text: string): HubMessage {
  // Pings are the most frequent record; skip JSON.parse for the canonical form.
  if (text === '{"type":6}') return ping;
  const o = asObject(parseJson(text), 'hub message');
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
  const o: WireObject = asObject(parseJson(text), 'handshake response');
  const error = optString(o, 'error');
  if (error !== undefined) throw new AgentError('hub', `handshake refused: ${error}`);
}

/** The handshake request record. */
export const handshakeRecord = '{"protocol":"json","version":1}\u001e';

/** An Invocation to the server; without `invocationId` it expects no answer. */
export function invocation(target: string, args: readonly unknown[], invocationId?: string): WireObject {
  return invocationId === undefined
    ? { type: HubMessageType.invocation, target, arguments: args }
    : { type: HubMessageType.invocation, invocationId, target, arguments: args };
}

/** An error Completion (answer to a server invocation we cannot serve). */
export function errorCompletion(invocationId: string, error: string): WireObject {
  return { type: HubMessageType.completion, invocationId, error };
}
