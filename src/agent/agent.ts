/**
 * The agent as a host with an application or a display uses it (the Node
 * target, the simulator, the tests): the core (agent-core.ts: what the firmware
 * builds) plus what only such a host calls: the application's measurements,
 * stopping, the counters and delivery state, the channel keys, the properties the hub
 * pushes, and the display hooks of `AgentOptions` (`onSample`, `onReport`,
 * `onDesired`). A board runs none of them, so its bundle carries only the core.
 */
import type { SenderState } from '../report/sender.js';
import { AgentCore } from './agent-core.js';
import type { AgentOptions } from './agent-options.js';
import { closeChannels } from './channel-set.js';
import type { ChannelSlot } from './channel-slot.js';
import type { AgentCounters } from './counters.js';
import type { DesiredRecord, DesiredStateSink } from './desired.js';
import type { Sample, Value } from './driver.js';

export class Agent extends AgentCore implements DesiredStateSink {
  readonly #options: AgentOptions;

  constructor(options: AgentOptions) {
    // A host's option (the firmware sets none; the core reads any period not above 0 as off).
    if (!((options.configRefreshMs ?? 0) >= 0)) throw new RangeError('configRefreshMs: expected >= 0');
    super(options);
    this.#options = options;
  }

  /** The counters, with the gauges (queued, held) brought up to date. */
  get counters(): Readonly<AgentCounters> {
    const { outbox, reporter, stats } = this;
    return Object.assign(stats, {
      queued: outbox.records,
      queuedBytes: outbox.bytes,
      held: reporter.held.length,
      dropped: outbox.dropped + reporter.droppedHeld + stats.lostToStore,
    });
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

  /** Stops sampling and delivering; closes batches into the (persistent) outbox. */
  stop(): void {
    if (!this.running) return;
    this.running = false;
    this.follower.stop();
    closeChannels(this.channels, this.#options.providers);
    // The sender stops first, so the batches closed now are written for the next run, not also sent now
    // (a send started here would be cut short by the stop and repeated after the restart).
    this.sender.stop();
    this.batcher.flush();
    this.outbox.persist();
  }

  /**
   * A host's clean stop (Ctrl-C): stops sampling, closes the open batches and delivers what is queued for up
   * to `withinMs` while the service takes it (not when the delivery waits for a retry: offline), then stops
   * (`stop`: what is left goes to the store). Resolves with the records left undelivered.
   */
  async drain(withinMs: number): Promise<number> {
    const clock = this.#options.clock;
    const until = clock.monotonicMs() + withinMs;
    // No more scans: the channels' tasks leave the scheduler (their drivers close at the stop).
    for (const slot of this.channels.slots.values()) this.scheduler.remove(slot);
    this.batcher.flush();
    while (this.running && this.outbox.records > 0 && this.delivery !== 'waiting' && clock.monotonicMs() < until) {
      await new Promise<void>((resolve) => clock.setTimer(resolve, 20));
    }
    this.stop();
    return this.outbox.records;
  }

  /** Re-reads channels, device and properties now (joins a read under way). Rejects when channels/list fails. */
  reloadConfig(): Promise<void> {
    return this.follower.read();
  }

  /** Application API: one measurement of `metric` (a number, string, boolean, Location or object). */
  writeMeasurement(metric: string, value: unknown): void {
    this.reporter.measurement(metric, value, this.#options.clock.monotonicMs());
  }

  /** Closes the open batches now (tests, shutdown). */
  flush(): void {
    this.batcher.flush();
  }

  updateProperties(values: Readonly<Record<string, Value>>, replace: boolean): void {
    this.#options.properties?.update(values, replace);
  }

  override sampled(slot: ChannelSlot, sample: Sample, monotonicMs: number): boolean {
    this.#options.onSample?.(slot.key, sample);
    const reported = super.sampled(slot, sample, monotonicMs);
    if (reported) this.#options.onReport?.(slot.key, sample);
    return reported;
  }

  override echoed(record: DesiredRecord, isLocation: boolean, sample: Sample, monotonicMs: number): void {
    super.echoed(record, isLocation, sample, monotonicMs);
    // The echo is a report too.
    this.#options.onDesired?.(record.key, record.value, sample);
    this.#options.onReport?.(record.key, sample);
  }
}
