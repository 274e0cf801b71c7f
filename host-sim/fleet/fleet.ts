/**
 * A fleet run: N simulated devices (device.ts) on one timer wheel and one
 * link, started over a ramp, driven through a scenario's events (outage,
 * broadcast, churn), drained (sampling stops; every outbox is delivered) and
 * read back. `run()` resolves with the observations; summary.ts sums them up.
 */
import type { AgentOptions } from '../../src/agent/agent-options.js';
import { AgentError } from '../../src/errors.js';
import type { Clock, HttpTransport, WebSocketFactory } from '../../src/ports.js';
import { Paths } from '../../src/wire.js';
import { FleetDevice } from './device.js';
import type { FleetUpdates } from './updates.js';
import { FleetLink } from './link.js';
import { CountingLogger } from './meter.js';
import type { FleetMember } from './roster.js';
import type { FleetEvent, FleetScenario } from './scenario.js';
import { readBackAll, type ReadBack } from './verify.js';

export interface FleetOptions {
  service: string;
  members: readonly FleetMember[];
  durationS: number;
  scenario: FleetScenario;
  /** The fleet's clock (a TimerWheel over the host clock). */
  clock: Clock;
  http: HttpTransport;
  sockets: WebSocketFactory;
  /** Devices start spread over this many seconds. Default N / 100. */
  rampS?: number;
  /** Longest wait for the outboxes to empty after the run, s. Default 120. */
  drainS?: number;
  agent?: Partial<AgentOptions>;
  /** Told once a second while the run lasts. */
  onTick?: (fleet: Fleet, second: number) => void;
  /** Every device runs the updater (rollout.ts). */
  updates?: FleetUpdates;
  /** Checked once a second: true ends the sampling before `durationS` (the drain follows). */
  until?: (fleet: Fleet) => boolean;
}

export interface OutageRecord {
  atS: number;
  seconds: number;
  /** Per device: ms from the end of the outage to its hub connected again (undefined: not yet). */
  reconnectMs: (number | undefined)[];
}

export interface BroadcastRecord {
  atS: number;
  channel: string;
  value: boolean | number | string;
  /** Wall time of the first write, Unix ms. */
  startWallMs: number;
  /** Devices the desired value was written to. */
  written: number;
  writeErrors: number;
  /** Per device: ms from the write to the echo reaching the service. */
  echoMs: Map<string, number>;
}

export type ChurnRecord = Omit<Extract<FleetEvent, { kind: 'churn' }>, 'kind' | 'at'> & { atS: number };

export interface FleetResult {
  elapsedS: number;
  /** Seconds of sampling: `durationS`, or less when `until` ended it. */
  sampledS: number;
  readBack: ReadBack[];
  /** Records still queued when the drain gave up. */
  undelivered: number;
  outages: OutageRecord[];
  broadcasts: BroadcastRecord[];
  churns: ChurnRecord[];
}

export class Fleet {
  readonly devices: FleetDevice[];
  readonly link: FleetLink;
  readonly logger = new CountingLogger();
  readonly originMs: number;
  readonly originWallMs: number;
  private readonly outages: OutageRecord[] = [];
  private readonly broadcasts: BroadcastRecord[] = [];
  private readonly churns: ChurnRecord[] = [];
  private readonly pending: Promise<unknown>[] = [];

  /** Throws AgentError `config.invalid` for a duration that is not positive or an event outside the run. */
  constructor(private readonly options: FleetOptions) {
    if (!(options.durationS > 0)) throw new AgentError('config.invalid', 'fleet: the duration must be > 0 s');
    for (const e of options.scenario.events) {
      if (e.at >= options.durationS) {
        throw new AgentError(
          'config.invalid',
          `scenario: the ${e.kind} at ${e.at} s is not within the ${options.durationS} s run`,
        );
      }
    }
    const { clock } = options;
    this.originMs = clock.monotonicMs();
    this.originWallMs = clock.wallMs();
    const maxSeconds = (options.rampS ?? 0) + options.durationS + (options.drainS ?? 120) + 600;
    this.link = new FleetLink(options.http, options.sockets, clock, this.originMs, maxSeconds);
    const context = {
      service: options.service,
      clock,
      link: this.link,
      logger: this.logger,
      agent: options.agent ?? {},
      ...(options.updates === undefined ? {} : { updates: options.updates }),
    };
    this.devices = options.members.map((m) => new FleetDevice(m, context));
    this.link.onDelivered((meter, entries, wall) => this.echoed(meter.key, entries, wall));
  }

  get seconds(): number {
    return (this.options.clock.monotonicMs() - this.originMs) / 1000;
  }

  private after(ms: number): Promise<void> {
    return new Promise((resolve) => this.options.clock.setTimer(resolve, ms));
  }

  private at(s: number, action: () => void): void {
    this.options.clock.setTimer(action, Math.max(0, this.originMs + s * 1000 - this.options.clock.monotonicMs()));
  }

  async run(): Promise<FleetResult> {
    const { durationS, clock } = this.options;
    const rampMs = (this.options.rampS ?? this.devices.length / 100) * 1000;
    this.devices.forEach((device, i) => {
      const delay = this.devices.length <= 1 ? 0 : (rampMs * i) / this.devices.length;
      this.pending.push(this.after(delay).then(() => device.start()));
    });
    for (const event of this.options.scenario.events) this.at(event.at, () => this.pending.push(this.handle(event)));
    let sampling = true;
    for (let s = 1; s <= durationS; s++) this.at(s, () => sampling && this.options.onTick?.(this, s));
    const endMs = this.originMs + durationS * 1000;
    while (clock.monotonicMs() < endMs && this.options.until?.(this) !== true)
      await this.after(Math.min(1000, endMs - clock.monotonicMs()));
    sampling = false;
    const sampledS = Math.min(durationS, this.seconds);
    await Promise.all(this.pending);
    const drainMs = (this.options.drainS ?? 120) * 1000;
    const left = await Promise.all(this.devices.map((d) => d.drain(drainMs)));
    const elapsedS = this.seconds;
    const readBack = await readBackAll(
      this.options.http,
      this.options.service,
      this.options.members,
      this.originWallMs,
      clock.wallMs() + 5000,
      (ms) => this.after(ms),
    );
    return {
      elapsedS,
      sampledS,
      readBack,
      undelivered: left.reduce((a, b) => a + b, 0),
      outages: this.outages,
      broadcasts: this.broadcasts,
      churns: this.churns,
    };
  }

  private async handle(event: FleetEvent): Promise<void> {
    if (event.kind === 'outage') {
      const record: OutageRecord = { atS: event.at, seconds: event.seconds, reconnectMs: [] };
      this.outages.push(record);
      this.link.cut();
      await this.after(event.seconds * 1000);
      this.link.restore();
      const endMs = this.options.clock.monotonicMs();
      // Waits at most until the end of the run; a device still offline then counts as not reconnected.
      const waitMs = Math.max(0, this.originMs + this.options.durationS * 1000 - endMs);
      await Promise.all(
        this.devices.map(async (device, i) => {
          const connectedMs = await device.whenHubConnected(endMs, waitMs);
          record.reconnectMs[i] = connectedMs === undefined ? undefined : connectedMs - endMs;
        }),
      );
    } else if (event.kind === 'broadcast') {
      await this.broadcast(event);
    } else {
      this.churns.push({ atS: event.at, devices: event.devices, downSeconds: event.downSeconds });
      const count = Math.min(event.devices, this.devices.length);
      const chosen = Array.from(
        { length: count },
        (_, i) => this.devices[Math.floor((i * this.devices.length) / count)]!,
      );
      await Promise.all(
        chosen.map(async (device) => {
          await device.stop();
          device.reboots++;
          await this.after(event.downSeconds * 1000);
          await device.start();
        }),
      );
    }
  }

  private async broadcast(event: FleetEvent & { kind: 'broadcast' }): Promise<void> {
    const record: BroadcastRecord = {
      atS: event.at,
      channel: event.channel,
      value: event.value,
      startWallMs: this.options.clock.wallMs(),
      written: 0,
      writeErrors: 0,
      echoMs: new Map(),
    };
    this.broadcasts.push(record);
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < this.devices.length) {
        const { member } = this.devices[next++]!;
        const body = JSON.stringify({
          device: member.key,
          states: [{ channel: `${event.channel}.desired`, value: event.value }],
        });
        try {
          const r = await this.options.http.request({
            method: 'POST',
            url: `${this.options.service}${Paths.statesWrite}`,
            headers: { authorization: `Bearer ${member.token}`, 'content-type': 'application/json' },
            body,
          });
          if (r.status >= 200 && r.status < 300) record.written++;
          else record.writeErrors++;
        } catch {
          record.writeErrors++;
        }
      }
    };
    await Promise.all(Array.from({ length: 16 }, worker));
  }

  /** Notes the first echo of each running broadcast per device. */
  private echoed(key: string, entries: readonly unknown[], _wall: number): void {
    for (const b of this.broadcasts) {
      if (b.echoMs.has(key)) continue;
      const startWall = b.startWallMs;
      const wanted = `${b.channel}.reported`;
      for (const entry of entries) {
        const e = entry as { channel?: unknown; value?: unknown; timestamp?: unknown };
        if (e.channel !== wanted || e.value !== b.value || typeof e.timestamp !== 'number') continue;
        if (e.timestamp * 1000 < startWall) continue;
        b.echoMs.set(key, this.options.clock.wallMs() - startWall);
        break;
      }
    }
  }
}
