/**
 * The SignalR text framing (spec 4.8), the one reader/writer of the hub's wire:
 * every JSON record ends with the record separator 0x1E. Shared by the agent's
 * hub client, its negotiate, and the local hub.
 *
 * JSON.stringify escapes U+001E inside strings, so a raw 0x1E always ends a
 * record. The decoder takes arbitrary chunks (a record split across messages,
 * several records in one) and refuses a record over `maxRecordBytes` instead of
 * growing without bound.
 */
import { AgentError } from '../errors.js';
import { Hub } from '../wire.js';
import { exceedsBytes } from '../utf8.js';

const RS = Hub.recordSeparatorChar;

/** Appends the record separator to one serialized message. */
export function encodeRecord(message: unknown): string {
  return JSON.stringify(message) + RS;
}

/** Parses one record's text (or a negotiate body); AgentError `wire.invalid` names `what`. */
export function readJson(text: string, what: string): unknown {
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new AgentError('wire.invalid', `${what}: not JSON (${text.length} chars)`, { cause: e });
  }
}

export class RecordDecoder {
  private partial = '';

  /** @param maxRecordBytes the largest record accepted, separator excluded. */
  constructor(private readonly maxRecordBytes: number) {}

  /**
   * Feeds one chunk; calls `onRecord` with each complete record's text (without
   * the separator). Throws AgentError `too-large` when a record exceeds the
   * limit; the decoder is then reset and the rest of the chunk dropped.
   */
  push(chunk: string, onRecord: (record: string) => void): void {
    let start = 0;
    for (let end = chunk.indexOf(RS); end !== -1; end = chunk.indexOf(RS, start)) {
      let record = chunk.slice(start, end);
      if (this.partial !== '') {
        record = this.partial + record;
        this.partial = '';
      }
      start = end + 1;
      this.check(record);
      onRecord(record);
    }
    if (start < chunk.length) {
      this.partial += chunk.slice(start);
      this.check(this.partial);
    }
  }

  /** Bytes waiting for their separator. */
  get pendingLength(): number {
    return this.partial.length;
  }

  reset(): void {
    this.partial = '';
  }

  private check(record: string): void {
    if (exceedsBytes(record, this.maxRecordBytes)) {
      this.partial = '';
      throw new AgentError('too-large', `hub record over ${this.maxRecordBytes} bytes`);
    }
  }
}
