/**
 * `npm run bench:core`: the agent core's cost per sample (decode, scale,
 * transmit decision, enqueue) against a naive peer in the same run (the peer
 * is described in bench/core/cost.ts: it decides before it encodes, numeric
 * timestamps, one JSON body per reported record), and HTTP
 * requests per second and bytes on the wire per reported record for 32
 * channels at 100 ms scan (aim: at most 2 requests per second). Last line: JSON.
 */
import { measureAllocation } from './core/alloc.js';
import { measureNaive, measureOurs, measureSplit } from './core/cost.js';
import { measureWire } from './core/wire.js';

const samples = 1_600_000;
const round = (x: number, digits = 1): number => Math.round(x * 10 ** digits) / 10 ** digits;

measureOurs(320_000, []); // warm-up
measureNaive(320_000, false);
const everyOurs = measureOurs(samples, []);
const everyNaive = measureNaive(samples, false);
const deltaOurs = measureOurs(samples, [{ type: 'delta', minimalChange: 0.5 }]);
const deltaNaive = measureNaive(samples, true);

const split = measureSplit(samples);
const cost = {
  samples,
  split: {
    decodeNs: round(split.decodeNs),
    encodeNs: round(split.encodeNs),
    byteCountNs: round(split.byteCountNs),
    restNs: round(everyOurs.nsPerSample - split.decodeNs - split.encodeNs - split.byteCountNs),
  },
  everyScan: {
    oursNsPerSample: round(everyOurs.nsPerSample),
    naiveNsPerSample: round(everyNaive.nsPerSample),
    ratio: round(everyNaive.nsPerSample / everyOurs.nsPerSample, 2),
  },
  delta: {
    reportedShare: round(deltaOurs.reported / samples, 3),
    oursNsPerSample: round(deltaOurs.nsPerSample),
    naiveNsPerSample: round(deltaNaive.nsPerSample),
    ratio: round(deltaNaive.nsPerSample / deltaOurs.nsPerSample, 2),
  },
};
console.log(
  `cost per sample, every scan reported: ours ${cost.everyScan.oursNsPerSample} ns, naive ${cost.everyScan.naiveNsPerSample} ns ` +
    `(${cost.everyScan.ratio}x)`,
);
console.log(
  `cost per sample, delta 0.5 (${cost.delta.reportedShare * 100} % reported): ours ${cost.delta.oursNsPerSample} ns, ` +
    `naive ${cost.delta.naiveNsPerSample} ns (${cost.delta.ratio}x)`,
);

console.log(
  `per reported sample (every scan): decode ${cost.split.decodeNs} ns, encode ${cost.split.encodeNs} ns, ` +
    `byte count ${cost.split.byteCountNs} ns, the rest (scale, decide, batch, outbox) ${cost.split.restNs} ns`,
);

const alloc = await measureAllocation(3_200_000);
console.log(
  `pin path, steady input (nothing reported), ${alloc.scans} scans: ${alloc.oursGcs} garbage collections, ` +
    `naive peer ${alloc.naiveGcs}`,
);

const w = await measureWire();
const wire = {
  channels: 32,
  scanMs: 100,
  records: w.records,
  requestsPerS: round(w.requestsPerS, 2),
  bytesUpPerRecord: round(w.bytesUpPerRecord),
  bytesTotalPerRecord: round(w.bytesTotalPerRecord),
  naiveRequestsPerS: w.naiveRequestsPerS,
  naiveRecordsAccepted: w.naiveRecordsAccepted,
  naiveBytesUpPerRecord: round(w.naiveBytesUpPerRecord),
  naiveBytesTotalPerRecord: round(w.naiveBytesTotalPerRecord),
  aimRequestsPerS: 2,
};
console.log(
  `wire, 32 channels at 100 ms, every scan reported: ${wire.requestsPerS} requests/s (aim <= 2), ` +
    `${wire.bytesUpPerRecord} B up / ${wire.bytesTotalPerRecord} B both ways per record; ` +
    `naive one-POST-per-record (measured): ${wire.naiveRequestsPerS} requests/s (${wire.naiveRecordsAccepted} accepted), ${wire.naiveBytesUpPerRecord} B up / ` +
    `${wire.naiveBytesTotalPerRecord} B both ways per record`,
);
console.log(JSON.stringify({ cost, alloc, wire }));
