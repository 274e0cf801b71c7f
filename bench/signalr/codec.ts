/**
 * Records decoded per second: our RecordDecoder + parseHubMessage (validated,
 * typed) against `@microsoft/signalr`'s JsonHubProtocol.parseMessages (the
 * peer, used as its authors intend), on the same transcript of WebSocket
 * messages, in alternating timed rounds. A third runner is the floor any JSON
 * decoder pays: split each message at the record separator and JSON.parse
 * each record, nothing else (no validation, no typing). The share of each
 * decoder's time that is that floor shows how much faster any decoder could be.
 */
import { JsonHubProtocol, NullLogger } from '@microsoft/signalr';
import { parseHubMessage, RecordDecoder } from '../../src/signalr/record-codec.js';

export interface CodecResult {
  messages: number;
  records: number;
  oursRecordsPerS: number;
  theirsRecordsPerS: number;
  ratio: number;
  /** Records per second of split + JSON.parse alone. */
  floorRecordsPerS: number;
  /** Share of each decoder's time that is the JSON.parse floor (floor time / its time). */
  oursFloorShare: number;
  theirsFloorShare: number;
}

type Decode = (messages: readonly string[]) => number;

const ours: Decode = (messages) => {
  const decoder = new RecordDecoder(1 << 20);
  let n = 0;
  const onRecord = (record: string): void => {
    parseHubMessage(record); // validates or throws; a Ping is undefined but counts
    n++;
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

/** The floor: split and JSON.parse only. */
const floor: Decode = (messages) => {
  let n = 0;
  for (const m of messages) {
    let start = 0;
    for (let end = m.indexOf('\u001e'); end >= 0; end = m.indexOf('\u001e', start)) {
      if (JSON.parse(m.slice(start, end)) !== null) n++;
      start = end + 1;
    }
  }
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
  if (floor(transcript) !== records) throw new Error('the JSON.parse floor counts other records');
  if (records !== check) throw new Error(`codecs disagree: ours ${records} records, theirs ${check}`);
  round(ours, transcript, 300); // warm-up
  round(theirs, transcript, 300);
  round(floor, transcript, 300);
  const a: number[] = [];
  const b: number[] = [];
  const c: number[] = [];
  for (let i = 0; i < rounds; i++) {
    a.push(round(ours, transcript, roundMs));
    b.push(round(theirs, transcript, roundMs));
    c.push(round(floor, transcript, roundMs));
  }
  const oursRecordsPerS = median(a);
  const theirsRecordsPerS = median(b);
  const floorRecordsPerS = median(c);
  return {
    messages: transcript.length,
    records,
    oursRecordsPerS: Math.round(oursRecordsPerS),
    theirsRecordsPerS: Math.round(theirsRecordsPerS),
    ratio: Math.round((oursRecordsPerS / theirsRecordsPerS) * 100) / 100,
    floorRecordsPerS: Math.round(floorRecordsPerS),
    oursFloorShare: Math.round((oursRecordsPerS / floorRecordsPerS) * 100) / 100,
    theirsFloorShare: Math.round((theirsRecordsPerS / floorRecordsPerS) * 100) / 100,
  };
}
