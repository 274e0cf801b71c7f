/**
 * The agent: configuration in, samples through transmit events, records out
 * (docs/agent.md). It owns the object graph of the core (scheduler, channels,
 * reporter, batcher, outbox, sender, wall time) and nothing host-specific:
 * every capability arrives through `AgentOptions` (STYLE.md practice 3).
 *
 * Start: the cached configuration (if any) starts sampling at once, offline;
 * then `channels/list`, `devices/get` and `properties/get` are read, retried
 * with backoff until the service answers. The outbox left by a previous run is
 * delivered first. The agent is also the hub's DesiredStateSink (decisions 5).
 * The configuration follows the service (ConfigFollower, ChannelSet; a refused write is split by the Sender).
 */
import { obj, str } from '../reader.js';
import { toAgentError } from '../errors.js';
import type { Clock, Logger } from '../ports.js';
import { Batcher, defaultBatchOptions } from '../report/batcher.js';
import { Outbox } from '../report/outbox.js';
import { defaultOutboxOptions } from '../report/outbox-options.js';
import { Reporter } from '../report/reporter.js';
import { Sender, type SenderState } from '../report/sender.js';
import { fullJitter } from '../retry/backoff.js';
import { Scheduler } from '../sched/scheduler.js';
import { ServiceClient } from '../service/client.js';
import { WallTime } from '../time/wall-time.js';
import { Paths, StateSide } from '../wire.js';
import type { AgentOptions } from './agent-options.js';
import { ChannelSet } from './channel-set.js';
import type { ChannelSlot, SampleSink } from './channel-slot.js';
import { ConfigFollower } from './config-follower.js';
import { createCounters, type AgentCounters } from './counters.js';
import { parseDesiredRecords, type DesiredRecord, type DesiredStateSink } from './desired.js';
import type { Sample, Value } from './driver.js';

export class Agent implements DesiredStateSink, SampleSink {
  readonly client: ServiceClient;
  readonly wallTime: WallTime;
  readonly outbox: Outbox;
  readonly observeSample: ((key: string, sample: Sample) => void) | undefined;
  /** The device's uid from `devices/get`, once read (the hub filters Notify messages on it). */
  device: { uid: string } | undefined;
  readonly #options: AgentOptions;
  readonly #clock: Clock;
  readonly #logger: Logger;
  readonly #scheduler: Scheduler;
  readonly #batcher: Batcher;
  readonly #reporter: Reporter;
  readonly #sender: Sender;
  readonly #channels: ChannelSet;
  readonly #stats: AgentCounters = createCounters();
  readonly #follower: ConfigFollower;
  #running = false;

  constructor(options: AgentOptions) {
    const { clock, logger } = options;
    const stats = this.#stats;
    this.#options = options;
    this.#clock = clock;
    this.#logger = logger;
    const retry = options.retry ?? fullJitter();
    this.observeSample = options.onSample;
    const wallTime = (this.wallTime = new WallTime(clock));
    const client = (this.client = new ServiceClient(options.http, options.service));
    client.onDate = (header) => wallTime.observeHttpDate(header);
    client.onSuccess = () => this.#sender.retryNow();
    const batch = { ...defaultBatchOptions, ...options.batch };
    // Joined outbox entries stay within one batch's size (a Moddable preference holds one).
    const entry = { maxEntryBytes: batch.maxBytes, maxEntryRecords: batch.maxRecords };
    const outbox = (this.outbox = new Outbox(
      options.store,
      { ...defaultOutboxOptions, ...entry, ...options.outbox },
      logger,
      clock,
    ));
    this.#batcher = new Batcher(clock, batch, (lane, json, count, bytes) => {
      try {
        outbox.append(lane, json, count, bytes);
      } catch (e) {
        // A full or failing store must not stop sampling: the batch is lost, counted and logged.
        stats.lostToStore += count;
        logger.log('error', 'outbox: batch not stored', { records: count, reason: toAgentError(e).message });
      }
      this.#sender.kick();
    });
    const reporter = (this.#reporter = new Reporter(wallTime, this.#batcher, stats, options.maxHeld));
    const sender = (this.#sender = new Sender(clock, client, outbox, retry, logger, stats, options.authRetryMs));
    const scheduler = (this.#scheduler = new Scheduler(clock));
    const channels = (this.#channels = new ChannelSet(options, scheduler, this, reporter, wallTime, stats));
    this.#follower = new ConfigFollower({
      ...options,
      retry,
      client,
      apply: (config) => channels.apply(config),
      loaded: async () => {
        sender.retryNow();
        try {
          this.device = { uid: str(obj(await client.ofDevice(Paths.devicesGet), 'device')['uid'], 'device.uid') };
        } catch (e) {
          logger.log('warn', 'device: not read', { reason: toAgentError(e).message });
        }
        await options.properties?.read(client);
      },
    });
    sender.refusals = { refresh: () => this.reloadConfig(), channels };
  }

  /** The counters, with the gauges (queued, held) brought up to date. */
  get counters(): Readonly<AgentCounters> {
    const stats = this.#stats;
    stats.queued = this.outbox.records;
    stats.queuedBytes = this.outbox.bytes;
    stats.held = this.#reporter.heldCount;
    stats.dropped = this.outbox.dropped + this.#reporter.droppedHeld + stats.lostToStore;
    return stats;
  }

  /** Whether the last delivery reached the service. */
  get online(): boolean {
    return this.#sender.online;
  }

  /** What the delivery loop is doing: idle, sending, waiting (backoff) or stopped. */
  get delivery(): SenderState {
    return this.#sender.current;
  }

  /** Channel keys being sampled now. */
  get channelKeys(): string[] {
    return [...this.#channels.slots.keys()];
  }

  /** Boots from the cached configuration, then reads the service's; resolves after the first attempt. */
  async start(): Promise<void> {
    if (this.#running) return;
    this.#running = true;
    this.#scheduler.start();
    this.#sender.kick();
    await this.#follower.start();
  }

  /** Re-reads channels, device and properties now (joins a read under way). Rejects when channels/list fails. */
  reloadConfig(): Promise<void> {
    return this.#follower.read();
  }

  /** The hub connected again: the configuration may have changed meanwhile. */
  hubReconnected(): void {
    void this.#follower.nudge('hub reconnected');
  }

  /** Stops sampling and delivering; closes batches into the (persistent) outbox. */
  stop(): void {
    if (!this.#running) return;
    this.#running = false;
    this.#follower.stop();
    this.#scheduler.stop();
    this.#channels.close();
    // The sender stops first, so the batches closed now are written for the next run, not also sent now
    // (a send started here would be cut short by the stop and repeated after the restart).
    this.#sender.stop();
    this.#batcher.flush();
    this.outbox.persist();
  }

  /** Application API: one measurement of `metric` (a number, string, boolean, Location or object). */
  writeMeasurement(metric: string, value: unknown): void {
    this.#reporter.measurement(metric, value, this.#clock.monotonicMs());
  }

  /** Closes the open batches now (tests, shutdown). */
  flush(): void {
    this.#batcher.flush();
  }

  reportSample(slot: ChannelSlot, sample: Sample, monotonicMs: number): void {
    this.#reporter.channel(slot.key, slot.isLocation, sample, monotonicMs);
    this.#options.onReport?.(slot.key, sample);
  }

  applyDesired(record: DesiredRecord): Promise<void> {
    return this.#channels.applyDesired(record);
  }

  async resyncDesired(): Promise<void> {
    const { records, skipped } = parseDesiredRecords(
      await this.client.ofDevice(Paths.statesReadLast, ['channels', `*${StateSide.desired}`]),
    );
    if (skipped > 0) this.#logger.log('warn', 'desired: records skipped', { skipped });
    for (const record of records) await this.applyDesired(record);
  }

  updateProperties(values: Readonly<Record<string, Value>>, replace: boolean): void {
    this.#options.properties?.update(values, replace);
  }
}
