/**
 * `npm run bench:signalr` (docs/realtime.md): in one run,
 *  1. latency from an HTTP `.desired` write to the simulated pin write, on
 *     loopback through the local service, the hub client and the agent;
 *  2. records decoded per second, ours vs `@microsoft/signalr`'s
 *     JsonHubProtocol, on the transcript the client received in (1);
 *  3. the minified size of the client alone vs `signalr.min.js`.
 * Prints ratios, and as its last line one JSON object of the figures.
 */
import { compareCodecs } from './signalr/codec.js';
import { measureLatency } from './signalr/latency.js';
import { measureSize } from './signalr/size.js';

const latency = await measureLatency(300);
console.log(
  `desired latency (HTTP write → pin write, loopback, ${latency.samples} writes): ` +
    `p50 ${latency.p50Ms.toFixed(2)} ms, p99 ${latency.p99Ms.toFixed(2)} ms, max ${latency.maxMs.toFixed(2)} ms`,
);

// The recorded session, repeated so one pass is long enough to time.
const transcript: string[] = [];
while (transcript.length < 20000) transcript.push(...latency.transcript);
const codec = compareCodecs(transcript);
report('recorded session (Notify with 2 states, SetProperties Completions)', codec);

// The same Notify messages as an idle device sees them: the server's keep-alive Ping every 15 s,
// one desired change every 5 minutes (20 Pings per Notify).
const notifies = latency.transcript.filter((m) => m.includes('"Notify"'));
const idle: string[] = [];
for (let i = 0; idle.length < 20000; i++) {
  for (let p = 0; p < 20; p++) idle.push('{"type":6}\u001e');
  idle.push(notifies[i % notifies.length] ?? '{"type":6}\u001e');
}
const codecIdle = compareCodecs(idle);
report('idle session (20 server Pings per Notify)', codecIdle);

function report(name: string, c: typeof codec): void {
  console.log(
    `codec, ${name}: ${c.records} records per pass; ours ${c.oursRecordsPerS} records/s, ` +
      `@microsoft/signalr JsonHubProtocol ${c.theirsRecordsPerS} records/s: ${c.ratio}x (aim >= 1.5x); ` +
      `split + JSON.parse alone ${c.floorRecordsPerS} records/s, so JSON.parse is ${Math.round(c.oursFloorShare * 100)} % ` +
      `of our time and ${Math.round(c.theirsFloorShare * 100)} % of theirs (a decoder that JSON.parses every record tops out at ${(c.floorRecordsPerS / c.theirsRecordsPerS).toFixed(2)}x theirs)`,
  );
}

const size = await measureSize();
console.log(
  `size: client ${size.clientMinBytes} B minified (${size.clientGzipBytes} B gzip; ${size.clientMarginalMinBytes} B ` +
    `without the shared core modules), signalr.min.js ${size.officialMinBytes} B (${size.officialGzipBytes} B gzip): ` +
    `${size.ratio}x smaller (aim < 8192 B)`,
);

const { transcript: _recorded, ...latencyFigures } = latency;
console.log(JSON.stringify({ latency: latencyFigures, codec, codecIdle, size }));
