/**
 * The JSON hub protocol as the local hub speaks it (spec 4.8): the handshake,
 * message validation, and the error texts of the ASP.NET Core SignalR server
 * (without detailed errors), so that clients see what the real service sends.
 */
import { HubMessageType as T, isObject, maxJsonDepth, nestedDeeperThan } from '../wire.js';

/** Completion errors as the .NET server words them. */
export const HubErrors = {
  unknownMethod: (target: string) =>
    `Failed to invoke '${target}' due to an error on the server. HubException: Method does not exist.`,
  bindingFailure: (target: string) => `Failed to invoke '${target}' due to an error on the server.`,
  hubException: (target: string, message: string) =>
    `An unexpected error occurred invoking '${target}' on the server. HubException: ${message}`,
  unsupportedProtocol: (protocol: string) => `The protocol '${protocol}' is not supported.`,
  unsupportedVersion: (protocol: string, version: number) =>
    `The server does not support version ${version} of the '${protocol}' protocol.`,
  malformedHandshake: 'Handshake request was malformed.',
  closedWithError: 'Connection closed with an error.',
  tooLarge: (maxBytes: number) =>
    `Connection closed with an error. InvalidDataException: The maximum message size of ${maxBytes}B was exceeded.`,
} as const;

/** Reads the handshake request; returns the error text to answer with, or null when accepted. */
export function checkHandshake(record: string): string | null {
  let msg: unknown;
  try {
    msg = JSON.parse(record);
  } catch {
    return HubErrors.malformedHandshake;
  }
  if (!isObject(msg) || typeof msg['protocol'] !== 'string' || typeof msg['version'] !== 'number') {
    return HubErrors.malformedHandshake;
  }
  if (msg['protocol'] !== 'json') return HubErrors.unsupportedProtocol(msg['protocol']);
  if (msg['version'] !== 1) return HubErrors.unsupportedVersion('json', msg['version']);
  return null;
}

export type IncomingMessage =
  | { type: typeof T.invocation; target: string; invocationId: string | undefined; arguments: unknown[] }
  | { type: typeof T.ping }
  | { type: typeof T.close }
  /** Completions, stream messages and unknown types: ignored (spec 4.8 leaves them open). */
  | { type: 'ignored'; rawType: number };

/** Validates one record after the handshake; throws on a malformed message (the connection closes with an error). */
export function parseMessage(record: string): IncomingMessage {
  const msg: unknown = JSON.parse(record);
  if (nestedDeeperThan(msg, maxJsonDepth)) throw new Error(`message nested deeper than ${maxJsonDepth} levels`);
  if (!isObject(msg) || typeof msg['type'] !== 'number') throw new Error('message without a numeric type');
  const type = msg['type'];
  if (type === T.ping) return { type };
  if (type === T.close) return { type };
  if (type !== T.invocation) return { type: 'ignored', rawType: type };
  const { target, invocationId } = msg;
  const args = msg['arguments'] ?? [];
  if (typeof target !== 'string' || target === '') throw new Error('invocation without a target');
  if (invocationId !== undefined && invocationId !== null && typeof invocationId !== 'string') {
    throw new Error('invocationId must be a string');
  }
  if (!Array.isArray(args)) throw new Error('invocation arguments must be an array');
  return { type, target, invocationId: invocationId ?? undefined, arguments: args };
}

export const ping = { type: T.ping } as const;

export function completion(
  invocationId: string,
  outcome: { result: unknown } | { error: string },
): Record<string, unknown> {
  return { type: T.completion, invocationId, ...outcome };
}

export function invocation(target: string, args: unknown[]): Record<string, unknown> {
  return { type: T.invocation, target, arguments: args };
}

export function close(allowReconnect: boolean, error?: string): Record<string, unknown> {
  return error === undefined ? { type: T.close, allowReconnect } : { type: T.close, error, allowReconnect };
}
