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
import { toAgentError } from '../errors.js';
import type { Clock, Logger } from '../ports.js';
import { Batcher, defaultBatchOptions } from '../report/batcher.js';
import { Outbox } from '../report/outbox.js';
import { defaultOutboxOptions } from '../report/outbox-options.js';
import { Reporter } from '../report/reporter.js';
import { Sender, type SenderState } from '../report/sender.js';
import { FullJitterBackoff } from '../retry/backoff.js';
import { Scheduler } from '../sched/scheduler.js';
import { ServiceClient } from '../service/client.js';
import { WallTime } from '../time/wall-time.js';
import { ChannelSet, hashText } from './channel-set.js';
import type { ChannelSlot, SampleSink } from './channel-slot.js';
import { ConfigFollower } from './config-follower.js';
import { ConfigSource } from './config-source.js';
import { createCounters, type AgentCounters } from './counters.js';
import type { DesiredRecord, DesiredStateSink } from './desired.js';
import { DesiredApplier, parseDesiredRecords } from './desired-apply.js';
import type { Sample, Value } from './driver.js';
import type { AgentOptions } from './agent-options.js';
import { Properties, readDeviceAndProperties, type PropertiesListener, type PropertyValues } from './properties.js';

export class Agent implements DesiredStateSink, SampleSink {
  readonly client: ServiceClient;
  readonly wallTime: WallTime;
  readonly outbox: Outbox;
  private readonly clock: Clock;
  private readonly logger: Logger;
  private readonly scheduler: Scheduler;
  private readonly batcher: Batcher;
  private readonly reporter: Reporter;
  private readonly sender: Sender;
  private readonly channels: ChannelSet;
  private readonly configSource: ConfigSource;
  private readonly desired: DesiredApplier;
  private readonly props: Properties;
  private readonly stats: AgentCounters = createCounters();
  /** Hash of the configuration text in use: an unchanged body is not applied again (a number, not the text). */
  private configHash: number | undefined;
  private readonly follower: ConfigFollower;
  private running = false;
  readonly observeSample: ((key: string, sample: Sample) => void) | undefined;
  /** The device's record from `devices/get` (uid, name), once read. */
  device: { uid: string; name: string } | undefined;

  constructor(private readonly options: AgentOptions) {
    this.clock = options.clock;
    this.logger = options.logger;
    const retry = options.retry ?? new FullJitterBackoff();
    this.observeSample = options.onSample;
    this.wallTime = new WallTime(this.clock);
    this.client = new ServiceClient(options.http, options.service);
    this.client.onDate = (header) => this.wallTime.observeHttpDate(header);
    this.client.onSuccess = () => this.sender.retryNow();
    const batch = { ...defaultBatchOptions, ...options.batch };
    // Joined outbox entries stay within one batch's size (a Moddable preference holds one).
    const entry = { maxEntryBytes: batch.maxBytes, maxEntryRecords: batch.maxRecords };
    const outbox = { ...defaultOutboxOptions, ...entry, ...options.outbox };
    this.outbox = new Outbox(options.store, outbox, this.logger, this.clock);
    this.batcher = new Batcher(this.clock, batch, (lane, json, count, bytes) => {
      try {
        this.outbox.append(lane, json, count, bytes);
      } catch (e) {
        // A full or failing store must not stop sampling: the batch is lost, counted and logged.
        this.stats.lostToStore += count;
        this.logger.log('error', 'outbox: batch not stored', { records: count, reason: toAgentError(e).message });
      }
      this.sender.kick();
    });
    this.reporter = new Reporter(this.wallTime, this.batcher, this.stats, { maxHeld: options.maxHeld ?? 2000 });
    this.sender = new Sender(this.clock, this.client, this.outbox, retry, this.logger, this.stats, {
      authRetryMs: options.authRetryMs ?? 300000,
    });
    this.scheduler = new Scheduler(this.clock);
    this.channels = new ChannelSet(
      options.providers,
      this.scheduler,
      this,
      this.reporter,
      this.clock,
      this.logger,
      this.stats,
    );
    this.configSource = new ConfigSource(this.client, options.store, this.logger);
    this.follower = new ConfigFollower(
      this.clock,
      this.logger,
      retry,
      { periodMs: options.configRefreshMs ?? 300000, random: options.random ?? Math.random },
      () => this.load(),
    );
    this.sender.refusals = { refresh: () => this.reloadConfig(), channels: this.channels };
    this.desired = new DesiredApplier(
      this.reporter,
      this.clock,
      this.wallTime,
      this.logger,
      this.stats,
      {
        toleranceMs: options.desiredToleranceMs ?? 60000,
      },
      (key, value, echo) => {
        this.options.onDesired?.(key, value, echo);
        this.options.onReport?.(key, echo);
      },
    );
    this.props = new Properties(options.store, this.logger);
  }

  /** The counters, with the gauges (queued, held) brought up to date. */
  get counters(): Readonly<AgentCounters> {
    this.stats.queued = this.outbox.records;
    this.stats.queuedBytes = this.outbox.bytes;
    this.stats.held = this.reporter.heldCount;
    this.stats.dropped = this.outbox.dropped + this.reporter.droppedHeld + this.stats.lostToStore;
    return this.stats;
  }

  /** Whether the last delivery reached the service. */
  get online(): boolean {
    return this.sender.online;
  }

  /** What the delivery loop is doing: idle, sending, waiting (backoff) or stopped. */
  get delivery(): SenderState {
    return this.sender.current;
  }

  /** Channel keys being sampled now. */
  get channelKeys(): string[] {
    return [...this.channels.slots.keys()];
  }

  get properties(): PropertyValues {
    return this.props.values;
  }

  /** Tells the application about property changes (hub Notify, SetProperties, start). */
  onProperties(listener: PropertiesListener): void {
    this.props.onChange(listener);
  }

  /** Boots from the cached configuration, then reads the service's; resolves after the first attempt. */
  async start(): Promise<void> {
    if (this.running) return;
    this.running = true;
    const cached = this.configSource.cached();
    if (cached !== undefined) {
      this.logger.log('info', 'starting from the cached configuration');
      this.useConfig(cached.text, cached.config);
    }
    this.scheduler.start();
    this.sender.kick();
    await this.follower.start();
  }

  /** Re-reads channels, device and properties now (joins a read under way). Rejects when channels/list fails. */
  reloadConfig(): Promise<void> {
    return this.follower.read();
  }

  /** The hub connected again: the configuration may have changed meanwhile. */
  hubReconnected(): void {
    this.follower.nudge('after the hub reconnected');
  }

  /** Stops sampling and delivering; closes batches into the (persistent) outbox. */
  stop(): void {
    if (!this.running) return;
    this.running = false;
    this.follower.stop();
    this.scheduler.stop();
    this.channels.close();
    this.channels.closeProviders();
    // The sender stops first, so the batches closed now are written for the next run, not also sent now
    // (a send started here would be cut short by the stop and repeated after the restart).
    this.sender.stop();
    this.batcher.flush();
    this.outbox.persist();
  }

  /** Application API: one measurement of `metric` (a number, string, boolean, Location or object). */
  writeMeasurement(metric: string, value: unknown): void {
    this.reporter.measurement(metric, value, this.clock.monotonicMs());
  }

  /** Closes the open batches now (tests, shutdown). */
  flush(): void {
    this.batcher.flush();
  }

  reportSample(slot: ChannelSlot, sample: Sample, monotonicMs: number): void {
    this.reporter.channel(slot.key, slot.isLocation, sample, monotonicMs);
    this.options.onReport?.(slot.key, sample);
  }

  applyDesired(record: DesiredRecord): Promise<void> {
    const dot = record.key.indexOf('.');
    const slot = this.channels.slots.get(dot < 0 ? record.key : record.key.slice(0, dot));
    return this.desired.apply(record, slot);
  }

  async resyncDesired(): Promise<void> {
    const { records, skipped } = parseDesiredRecords(await this.client.desiredLast());
    if (skipped > 0) this.logger.log('warn', 'desired records skipped in resync', { skipped });
    for (const record of records) await this.applyDesired(record);
  }

  updateProperties(values: Readonly<Record<string, Value>>, replace: boolean): void {
    this.props.update(values, replace);
  }

  private useConfig(text: string, config: Parameters<ChannelSet['apply']>[0]): void {
    this.configHash = hashText(text);
    this.channels.apply(config);
  }

  private async load(): Promise<void> {
    const loaded = await this.configSource.fetch();
    if (!this.running) return;
    if (hashText(loaded.text) !== this.configHash) this.useConfig(loaded.text, loaded.config);
    this.sender.retryNow();
    await this.readDeviceAndProperties();
  }

  private async readDeviceAndProperties(): Promise<void> {
    const device = await readDeviceAndProperties(this.client, this.props, this.logger);
    if (device !== undefined) this.device = device;
  }
}
