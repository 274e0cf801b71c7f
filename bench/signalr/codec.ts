/**
 * Records decoded per second: our RecordDecoder + parseHubMessage (validated,
 * typed) against `@microsoft/signalr`'s JsonHubProtocol.parseMessages, on the
 * same transcript of WebSocket messages, in alternating timed rounds.
 */
import { JsonHubProtocol, NullLogger } from '@microsoft/signalr';
import { parseHubMessage } from '../../src/signalr/messages.js';
import { RecordDecoder } from '../../src/signalr/record-codec.js';

export interface CodecResult {
  messages: number;
  records: number;
  oursRecordsPerS: number;
  theirsRecordsPerS: number;
  ratio: number;
}

type Decode = (messages: readonly string[]) => number;

const ours: Decode = (messages) => {
  const decoder = new RecordDecoder(1 << 20);
  let n = 0;
  const onRecord = (record: string): void => {
    if (parseHubMessage(record).kind !== 'ignored') n++;
  };
  for (const m of messages) decoder.push(m, onRecord);
  return n;
};

const protocol = new JsonHubProtocol();
const theirs: Decode = (messages) => {
  let n = 0;
  for (const m of messages) n += protocol.parseMessages(m, NullLogger.instance).length;
  return n;
};

/** Records per second of `decode` over `roundMs` of repeated passes. */
function round(decode: Decode, messages: readonly string[], roundMs: number): number {
  let records = 0;
  const started = performance.now();
  let elapsed = 0;
  while (elapsed < roundMs) {
    records += decode(messages);
    elapsed = performance.now() - started;
  }
  return (records / elapsed) * 1000;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[sorted.length >> 1] ?? NaN;
}

export function compareCodecs(transcript: readonly string[], rounds = 7, roundMs = 700): CodecResult {
  const records = ours(transcript);
  const check = theirs(transcript);
  if (records !== check) throw new Error(`codecs disagree: ours ${records} records, theirs ${check}`);
  round(ours, transcript, 300); // warm-up
  round(theirs, transcript, 300);
  const a: number[] = [];
  const b: number[] = [];
  for (let i = 0; i < rounds; i++) {
    a.push(round(ours, transcript, roundMs));
    b.push(round(theirs, transcript, roundMs));
  }
  const oursRecordsPerS = median(a);
  const theirsRecordsPerS = median(b);
  return {
    messages: transcript.length,
    records,
    oursRecordsPerS: Math.round(oursRecordsPerS),
    theirsRecordsPerS: Math.round(theirsRecordsPerS),
    ratio: Math.round((oursRecordsPerS / theirsRecordsPerS) * 100) / 100,
  };
}
