/**
 * The agent core: configuration in, samples through transmit events, records out
 * (docs/agent.md). It owns the object graph of the core (scheduler, channels,
 * reporter, batcher, outbox, sender, wall time) and nothing host-specific:
 * every capability arrives through `AgentCoreOptions` (STYLE.md practice 3).
 * It is what the firmware builds; a host with an application or a display
 * builds `Agent` (agent.ts), this core plus the application and display API.
 *
 * Start: the cached configuration (if any) starts sampling at once, offline;
 * then `channels/list`, `devices/get` and `properties/get` are read, retried
 * with backoff until the service answers. The outbox left by a previous run is
 * delivered first. The agent is also the hub's desired-state sink (decisions 5).
 * The configuration follows the service (ConfigFollower, ChannelSet; a refused write is split by the Sender).
 */
import { obj, str } from '../reader.js';
import { logFailure, warn } from '../errors.js';
import type { Logger } from '../ports.js';
import { Batcher, defaultBatchOptions } from '../report/batcher.js';
import { Outbox } from '../report/outbox.js';
import { defaultOutboxOptions } from '../report/outbox-options.js';
import { Reporter } from '../report/reporter.js';
import { Sender } from '../report/sender.js';
import { fullJitter } from '../retry/backoff.js';
import { Scheduler } from '../sched/scheduler.js';
import { ServiceClient } from '../service/client.js';
import { WallTime } from '../time/wall-time.js';
import { Paths, StateSide } from '../wire.js';
import type { AgentCoreOptions } from './agent-options.js';
import { ChannelSet } from './channel-set.js';
import type { ChannelSlot, SampleSink } from './channel-slot.js';
import { ConfigFollower } from './config-follower.js';
import { createCoreCounters, type CoreCounters } from './counters.js';
import { parseDesiredRecords, type DesiredRecord, type DesiredStateSink } from './desired.js';
import type { Sample } from './driver.js';

export class AgentCore implements Omit<DesiredStateSink, 'updateProperties'>, SampleSink {
  declare readonly client: ServiceClient;
  declare readonly outbox: Outbox;
  /** The device's uid from `devices/get`, once read (the hub filters Notify messages on it). */
  declare device: { uid: string } | undefined;
  protected readonly stats: CoreCounters = createCoreCounters();
  declare protected readonly batcher: Batcher;
  declare protected readonly reporter: Reporter;
  declare protected readonly sender: Sender;
  declare protected readonly channels: ChannelSet;
  declare protected readonly follower: ConfigFollower;
  readonly #logger: Logger;
  declare protected readonly scheduler: Scheduler;
  /** Started and not stopped (a board runs until it is switched off: only a host stops, agent.ts). */
  protected running = false;

  constructor(options: AgentCoreOptions) {
    const { clock, logger } = options;
    const stats = this.stats;
    this.#logger = logger;
    const retry = options.retry ?? fullJitter();
    const wallTime = new WallTime(clock);
    const client = (this.client = new ServiceClient(options.http, options.service));
    client.onDate = (header) => wallTime.observeHttpDate(header);
    client.onSuccess = () => sender.retryNow();
    const batch = { ...defaultBatchOptions, ...options.batch };
    const outbox = (this.outbox = new Outbox(
      options.store,
      // Joined outbox entries stay within one batch's size (a Moddable preference holds one).
      { ...defaultOutboxOptions, maxEntryBytes: batch.maxBytes, maxEntryRecords: batch.maxRecords, ...options.outbox },
      logger,
      clock,
    ));
    const sender = (this.sender = new Sender(clock, client, outbox, retry, logger, stats, options.authRetryMs));
    const batcher = (this.batcher = new Batcher(clock, batch, (lane, json, count, bytes) => {
      try {
        outbox.append(lane, json, count, bytes);
      } catch (e) {
        // A full or failing store must not stop sampling: the batch is lost, counted and logged.
        stats.lostToStore += count;
        logFailure(logger, 'error', 'outbox: batch not stored', e, { records: count });
      }
      sender.kick();
    }));
    const reporter = (this.reporter = new Reporter(wallTime, batcher, stats, options.maxHeld));
    const scheduler = (this.scheduler = new Scheduler(clock));
    const channels = (this.channels = new ChannelSet(options, scheduler, this, reporter, wallTime, stats));
    const follower = (this.follower = new ConfigFollower({
      ...options,
      retry,
      client,
      channels,
      loaded: async () => {
        sender.retryNow();
        try {
          this.device = { uid: str(obj(await client.ofDevice(Paths.devicesGet), 'device')['uid'], 'device.uid') };
        } catch (e) {
          logFailure(logger, 'warn', 'device: not read', e);
        }
        await options.properties?.read(client);
      },
    }));
    sender.refusals = { refresh: () => follower.read(), channels };
  }

  /** Boots from the cached configuration, then reads the service's; resolves after the first attempt. */
  async start(): Promise<void> {
    if (this.running) return;
    this.running = true;
    this.sender.kick();
    await this.follower.start();
  }

  /** The hub connected again: the configuration may have changed meanwhile. */
  hubReconnected(): void {
    void this.follower.nudge('hub reconnected');
  }

  sampled(slot: ChannelSlot, sample: Sample, monotonicMs: number): boolean {
    this.stats.sampled++;
    const due = slot.decide(sample, monotonicMs);
    if (due) this.reporter.channel(slot.key, slot.isLocation, sample, monotonicMs);
    return due;
  }

  echoed(record: DesiredRecord, isLocation: boolean, sample: Sample, monotonicMs: number): void {
    this.reporter.channel(record.key, isLocation, sample, monotonicMs, true);
  }

  applyDesired(record: DesiredRecord): Promise<void> {
    return this.channels.applyDesired(record);
  }

  async resyncDesired(): Promise<void> {
    const { records, skipped } = parseDesiredRecords(
      await this.client.ofDevice(Paths.statesReadLast, ['channels', `*${StateSide.desired}`]),
    );
    if (skipped > 0) warn(this.#logger, 'desired: records skipped', { skipped });
    for (const record of records) await this.applyDesired(record);
  }
}
