/**
 * The SignalR text framing as the local hub reads it (spec 4.8): each JSON
 * record ends with the record separator U+001E; a chunk may hold several
 * records or part of one. A record over `maxRecordBytes` (UTF-8) is refused
 * with ServiceError `too-large` and the partial text is dropped, so a client
 * cannot grow the buffer without bound.
 */
import { ServiceError } from '../errors.js';

const RS = '\u001e';

/** One serialized message with its separator. */
export function encodeRecord(message: unknown): string {
  return JSON.stringify(message) + RS;
}

function overLimit(text: string, maxBytes: number): boolean {
  if (text.length * 3 <= maxBytes) return false;
  if (text.length > maxBytes) return true;
  return Buffer.byteLength(text, 'utf8') > maxBytes;
}

export class RecordReader {
  private partial = '';

  constructor(private readonly maxRecordBytes: number) {}

  /** Calls `onRecord` with each complete record (separator removed). Throws `too-large`. */
  push(chunk: string, onRecord: (record: string) => void): void {
    let start = 0;
    for (let end = chunk.indexOf(RS); end !== -1; end = chunk.indexOf(RS, start)) {
      const record = this.partial + chunk.slice(start, end);
      this.partial = '';
      start = end + 1;
      this.check(record);
      onRecord(record);
    }
    if (start < chunk.length) {
      this.partial += chunk.slice(start);
      this.check(this.partial);
    }
  }

  private check(record: string): void {
    if (overLimit(record, this.maxRecordBytes)) {
      this.partial = '';
      throw new ServiceError('too-large', `hub record over ${this.maxRecordBytes} bytes`);
    }
  }
}
