/**
 * The JSON summary of a fleet run: delivery (reported, acknowledged, stored,
 * duplicates, losses: there must be none), rates, fleet-wide and per-device
 * latency, the process's CPU and memory, and each scenario event's figures:
 * an outage's reconnect storm against its bound, a broadcast's echo times.
 *
 * The storm bound (docs/fleet.md): the hub client's retry policy is full
 * jitter, delay n uniform in [0, min(60 s, 2^(n-1) s)). A device that failed
 * for 30 s has made at least four attempts (their windows add up to 15 s at
 * most), so its pending delay is drawn from a window of 16 s or more: the
 * expected reconnect attempts of N devices are at most N/16 per second after
 * the outage. The check allows twice that, N/8 per one-second bucket.
 */
import type { Fleet, FleetResult } from './fleet.js';
import { LatencyHistogram, type LatencySummary } from './meter.js';

export interface ProcessUsage {
  /** CPU seconds (user + system) over the run, before the drain. */
  cpuS: number;
  /** Wall seconds of the same span. */
  wallS: number;
  peakRssBytes: number;
  /** RSS before any device was built. */
  baselineRssBytes: number;
  /** RSS and heap with every device running (sampled at the end of the run). */
  runningRssBytes: number;
  heapUsedBytes: number;
  baselineHeapBytes: number;
  /** Event-loop delay over the sampling span (perf_hooks), ms. */
  loopDelayMs: { p50: number; p99: number; max: number };
}

const sum = (values: number[]): number => values.reduce((a, b) => a + b, 0);
const mb = (bytes: number): number => Math.round((bytes / 1048576) * 10) / 10;
const round = (v: number, digits = 2): number => Math.round(v * 10 ** digits) / 10 ** digits;

function spread(values: number[]): { p50Ms: number; p95Ms: number; maxMs: number } {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number): number =>
    sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
  return { p50Ms: Math.round(at(0.5)), p95Ms: Math.round(at(0.95)), maxMs: Math.round(at(1)) };
}

/** The upper bound on hub connect attempts per second after an outage of `seconds` (see the header). */
export function stormBoundPerS(devices: number, seconds: number): number {
  // Attempts made by the end of the outage: at least k where the windows 1, 2, ..., 2^(k-1) s sum to <= seconds.
  let k = 0;
  let sum = 0;
  while (sum + 2 ** k <= seconds && k < 6) sum += 2 ** k++;
  const windowS = Math.min(60, 2 ** k);
  return Math.ceil((2 * devices) / windowS);
}

export function summarize(fleet: Fleet, result: FleetResult, usage: ProcessUsage, durationS: number) {
  const n = fleet.devices.length;
  const t = { sampled: 0, reported: 0, sent: 0, dropped: 0, rejected: 0, stored: 0, duplicates: 0, readErrors: 0 };
  let reboots = 0;
  const perDevice = fleet.devices.map((device, i) => {
    const c = device.counters();
    const back = result.readBack[i]!;
    t.sampled += c.sampled;
    t.reported += c.reported;
    t.sent += c.sent;
    t.dropped += c.dropped;
    t.rejected += c.rejected;
    t.stored += back.stored;
    t.duplicates += back.duplicates;
    reboots += device.reboots;
    if (back.error !== undefined) t.readErrors++;
    return {
      key: device.member.key,
      reported: c.reported,
      sent: c.sent,
      stored: back.stored,
      duplicates: back.duplicates,
      lost: Math.max(0, c.reported - back.stored),
      latency: device.meter.latency.summary(),
      connectAttempts: device.meter.connectAttempts,
      ...(back.error === undefined ? {} : { readError: back.error }),
    };
  });
  const acknowledged = fleet.devices.reduce((a, d) => a + d.meter.delivered, 0);
  const lost = perDevice.reduce((a, d) => a + d.lost, 0);
  const p99s = perDevice.map((d) => d.latency.p99Ms);
  const { link } = fleet;
  const storms = result.outages.map((o) => {
    const endS = Math.ceil(o.atS + o.seconds);
    const during = link.connectAttempts.range(Math.floor(o.atS), endS);
    const after = link.connectAttempts.range(endS, Math.floor(durationS));
    const bound = stormBoundPerS(n, o.seconds);
    const reconnected = o.reconnectMs.filter((v): v is number => v !== undefined);
    return {
      atS: o.atS,
      seconds: o.seconds,
      peakAttemptsPerSDuring: Math.max(0, ...during),
      peakAttemptsPerSAfter: Math.max(0, ...after),
      meanAttemptsPerSAfter: after.length === 0 ? 0 : round(after.reduce((a, b) => a + b, 0) / after.length),
      boundPerS: bound,
      withinBound: Math.max(0, ...after) <= bound,
      attemptsPerSAfter: after.slice(0, 90),
      reconnect: { ...spread(reconnected), reconnected: reconnected.length, notReconnected: n - reconnected.length },
    };
  });
  const broadcasts = result.broadcasts.map((b) => ({
    atS: b.atS,
    channel: b.channel,
    value: b.value,
    written: b.written,
    writeErrors: b.writeErrors,
    echoed: b.echoMs.size,
    ...spread([...b.echoMs.values()]),
  }));
  const all = new LatencyHistogram();
  for (const d of fleet.devices) all.merge(d.meter.latency);
  const figures = {
    devices: n,
    durationS,
    elapsedS: round(result.elapsedS, 1),
    delivery: {
      reported: t.reported,
      sent: t.sent,
      stored: t.stored,
      duplicates: t.duplicates,
      lost,
      redelivered: acknowledged - t.sent,
      dropped: t.dropped,
      rejected: t.rejected,
      undelivered: result.undelivered,
      readErrors: t.readErrors,
      exactlyOnce:
        lost === 0 &&
        t.duplicates === 0 &&
        t.dropped === 0 &&
        t.rejected === 0 &&
        t.readErrors === 0 &&
        result.undelivered === 0 &&
        t.reported === t.stored,
    },
    /** Scans that produced a sample; a starved process skips scans (see process.loopDelayMs). */
    sampled: t.sampled,
    /** Records acknowledged and requests started while the devices sampled (the drain not included). */
    recordsPerS: round(sum(link.records.range(0, Math.floor(durationS))) / Math.max(1, Math.floor(durationS)), 1),
    requestsPerS: round(sum(link.requests.range(0, Math.floor(durationS))) / Math.max(1, Math.floor(durationS)), 1),
    latency: all.summary() as LatencySummary,
    perDeviceP99Ms: spread(p99s),
    process: {
      cpuCores: round(usage.cpuS / usage.wallS, 3),
      cpuS: round(usage.cpuS, 1),
      rssMB: mb(usage.runningRssBytes),
      peakRssMB: mb(usage.peakRssBytes),
      baselineRssMB: mb(usage.baselineRssBytes),
      rssPerDeviceKB: round((usage.runningRssBytes - usage.baselineRssBytes) / n / 1024, 1),
      loopDelayMs: usage.loopDelayMs,
      heapPerDeviceKB: round((usage.heapUsedBytes - usage.baselineHeapBytes) / n / 1024, 1),
    },
    hub: { connectAttempts: fleet.devices.reduce((a, d) => a + d.meter.connectAttempts, 0), reboots },
    storms,
    broadcasts,
    churns: result.churns,
    errors: Object.fromEntries(link.errors),
    /** 429 and 503 answers the fleet met (decisions 10): a fleet within the service's budgets meets none. */
    refusals: { ...link.refusals },
    logs: fleet.logger.problems(),
  };
  return { figures, perDevice };
}
