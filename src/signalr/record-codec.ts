/**
 * The hub's wire (spec 4.8, JSON hub protocol), one reader/writer: the 0x1E
 * record framing both ways, and the validation of one record into the message
 * the device acts on. Shared by the hub client, its negotiate, and the tests
 * and benches that play the server.
 *
 * JSON.stringify escapes U+001E inside strings, so a raw 0x1E always ends a
 * record. The decoder takes arbitrary chunks (a record split across messages,
 * several records in one) and refuses a record over its byte bound instead of
 * growing without bound.
 *
 * A device acts on three message types: Invocation (1), Completion (3) and
 * Close (7); a Ping (6) only counts as something received. Invocation and Close
 * fields are checked in place (the record's object is the message, nothing is
 * copied); a Completion's fields are checked by its one reader, the HubInvoker.
 * Any other type, Ping and streams included, is `undefined` and ignored.
 * Malformed JSON or a bad field throws `wire.invalid`.
 */
import { asArray, bool, opt, optStr, readObject, str } from '../reader.js';
import { AgentError } from '../errors.js';
import { exceedsBytes } from '../utf8.js';
import { Hub, HubMessageType as T } from '../wire.js';

const RS = Hub.recordSeparatorChar;

/** A Ping's canonical text. */
const ping = '{"type":6}';

/** The Ping record (sent far more often than anything else). */
export const pingRecord = ping + RS;

/** The handshake request record (spec 4.8 step 3). */
export const handshakeRecord = '{"protocol":"json","version":1}' + RS;

/** A server-to-client Invocation; `invocationId` (string) when the server expects a Completion. */
export interface InvocationMessage {
  type: typeof T.invocation;
  target: string;
  arguments: readonly unknown[];
  invocationId?: string | null;
}

/**
 * The answer to one of our invocations, unchecked past its type: only a
 * HubInvoker (hub-invoker.ts, which no board links) reads it, and checks its
 * `invocationId`, `result` and `error` itself.
 */
export interface CompletionMessage {
  type: typeof T.completion;
  readonly [field: string]: unknown;
}

export interface CloseMessage {
  type: typeof T.close;
  error?: string | null;
  allowReconnect?: boolean | null;
}

export type HubMessage = InvocationMessage | CompletionMessage | CloseMessage;

/** Appends the record separator to one serialized message. */
export function encodeRecord(message: unknown): string {
  return JSON.stringify(message) + RS;
}

/**
 * Validates one record's text (separator removed); `undefined` for a type the
 * device does not act on, Ping included (receiving anything is what counts).
 */
export function parseHubMessage(text: string): HubMessage | undefined {
  // Pings are the most frequent record; the canonical form skips JSON.parse.
  if (text === ping) return undefined;
  const o = readObject(text, 'hub');
  const type = o['type'];
  if (type === T.invocation) {
    str(o['target'], 'target');
    asArray(o['arguments'], 'arguments');
    optStr(o['invocationId'], 'invocationId');
  } else if (type === T.close) {
    optStr(o['error'], 'error');
    opt(bool)(o['allowReconnect'], 'allowReconnect');
  } else if (type !== T.completion) return undefined;
  return o as unknown as HubMessage;
}

export class RecordDecoder {
  #partial = '';
  readonly #maxBytes: number;

  /** @param maxRecordBytes the largest record accepted, separator excluded. */
  constructor(maxRecordBytes: number) {
    this.#maxBytes = maxRecordBytes;
  }

  /**
   * Feeds one chunk; calls `onRecord` with each complete record's text (without
   * the separator). Throws AgentError `too-large` when a record exceeds the
   * bound; the decoder is then reset and the rest of the chunk dropped.
   */
  push(chunk: string, onRecord: (record: string) => void): void {
    // The text after the last separator is the next record's beginning ('' when the chunk ends one).
    const records = (this.#partial + chunk).split(RS);
    const rest = records.pop()!;
    this.#partial = '';
    for (const record of records) onRecord(this.#check(record));
    this.#partial = this.#check(rest);
  }

  #check(record: string): string {
    if (exceedsBytes(record, this.#maxBytes)) {
      this.#partial = '';
      throw new AgentError('too-large', `hub: record over ${this.#maxBytes} B`);
    }
    return record;
  }
}
