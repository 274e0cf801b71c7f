/**
 * `npm run bench:field`: the agent in field conditions, each figure beside a
 * peer measured in the same run:
 *  1. desired-to-echo latency at the service (loopback, real time): ours
 *     (the echo closes its own batch) vs the echo waiting for the 1 s batch
 *     timer (bench/field/echo.ts);
 *  2. time from the service's return to the first delivered batch after a
 *     60 s outage: ours (any successful request, such as the hub's resync
 *     after it reconnects, restarts delivery) vs the outbox's own back-off
 *     alone (bench/field/outage.ts);
 *  3. store bytes written per record delivered, online and offline, with a
 *     counting store: the RAM-first ring outbox vs the write-through outbox it
 *     replaced (bench/field/flash.ts).
 * Prints ratios, and as its last line one JSON object of the figures.
 */
import { measureEcho } from './field/echo.js';
import { flashRun, type FlashFigures } from './field/flash.js';
import { outageTrial } from './field/outage.js';

const echo = await measureEcho(100, true);
const echoPeer = await measureEcho(20, false);
console.log(
  `desired -> echo stored at the service (loopback): ours p50 ${echo.p50Ms} ms, p99 ${echo.p99Ms} ms ` +
    `(${echo.samples} writes); batch-timer peer p50 ${echoPeer.p50Ms} ms, p99 ${echoPeer.p99Ms} ms ` +
    `(${echoPeer.samples} writes): p50 ${(echoPeer.p50Ms / echo.p50Ms).toFixed(1)}x faster (aim: p99 < 100 ms)`,
);

const trials = 10;
const ours: number[] = [];
const peer: number[] = [];
for (let i = 0; i < trials; i++) {
  ours.push(await outageTrial(true));
  peer.push(await outageTrial(false));
}
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
const mean = (xs: number[]): number => Math.round(xs.reduce((a, b) => a + b, 0) / xs.length);
const outage = {
  trials,
  oursMs: ours,
  peerMs: peer,
  oursMedianMs: median(ours),
  peerMedianMs: median(peer),
  oursMeanMs: mean(ours),
  peerMeanMs: mean(peer),
};
console.log(
  `service back after a 60 s outage -> first batch delivered (agent time, ${trials} trials, 20 ms steps): ` +
    `ours median ${outage.oursMedianMs} ms, mean ${outage.oursMeanMs} ms [${ours.join(', ')}]; ` +
    `back-off-only peer median ${outage.peerMedianMs} ms, mean ${outage.peerMeanMs} ms [${peer.join(', ')}]: ` +
    `mean ${(outage.peerMeanMs / Math.max(1, outage.oursMeanMs)).toFixed(1)}x sooner`,
);

const runs = [
  ['online', 'online', 600],
  ['offline10min', 'offline', 600],
  ['offline40min', 'offline', 2400],
] as const;
const flash: Record<string, { ring: FlashFigures; writeThrough: FlashFigures }> = {};
for (const [name, mode, seconds] of runs) {
  const ring = flashRun('ring', mode, seconds);
  const writeThrough = flashRun('write-through', mode, seconds);
  flash[name] = { ring, writeThrough };
  console.log(
    `store writes, ${mode} ${seconds / 60} min (8 channels at 1 Hz, ${ring.records} records delivered): ring outbox ` +
      `${ring.bytesPerRecord} B/record (${ring.sets} writes, ${ring.deletes} deletes, ${ring.keysUsed} keys); ` +
      `write-through peer ${writeThrough.bytesPerRecord} B/record (${writeThrough.sets} writes, ` +
      `${writeThrough.deletes} deletes, ${writeThrough.keysUsed} keys)`,
  );
}

console.log(JSON.stringify({ echo, echoPeer, outage, flash }));
