/**
 * One simulated device of the fleet: the real agent core (configuration,
 * sampling, transmit events, batching, outbox) on simulated pins and a
 * simulated GNSS receiver, with the real hub client and its glue, all on the
 * fleet's shared clock (one timer wheel) and link (one HTTP transport, one
 * socket factory). Its store is in memory and outlives reboots, as flash does.
 *
 * A reboot is orderly: the agent waits (bounded) for its request in flight to
 * be answered, stops (its open batches go to the outbox), and a new agent
 * starts on the same store, from the cached configuration, delivering the
 * outbox first. Counters of earlier lives are kept in `previous`. Lives change
 * one at a time (life-queue.ts): a restart, a stop and the end-of-run drain
 * never overlap, and nothing restarts after the drain.
 * With `updates` (rollout.ts) each life also runs the updater (updates.ts).
 */
import { Agent } from '../../src/agent/agent.js';
import type { AgentOptions } from '../../src/agent/agent-options.js';
import { createCounters, type AgentCounters } from '../../src/agent/counters.js';
import { CustomChannels } from '../../src/custom/provider.js';
import { GnssLocationProvider } from '../../src/gnss/location-provider.js';
import { PinChannelProvider } from '../../src/pins/provider.js';
import type { Clock, Logger } from '../../src/ports.js';
import { linkAgent, type AgentLink } from '../../src/signalr/agent-hub.js';
import { HubClient, type HubStateKind } from '../../src/signalr/hub-client.js';
import { watchDelivery } from '../../src/ota/trial.js';
import type { Updater } from '../../src/ota/updater.js';
import { MemoryStore } from '../../targets/node/store.js';
import { SimulatedDevice } from '../device/device.js';
import { simulatedGnssSerial } from '../hardware/gnss.js';
import { SimPins } from '../pins/sim-pins.js';
import type { FleetMember } from './roster.js';
import { drainOutbox, whenNotSending } from './drain.js';
import { LifeQueue } from './life-queue.js';
import { DeviceMeter, type FleetLink } from './link.js';
import { SimSlots } from './sim-slots.js';
import { lifeUpdater, type FleetUpdates } from './updates.js';

export interface FleetDeviceContext {
  service: string;
  clock: Clock;
  link: FleetLink;
  logger: Logger;
  /** Agent options over the defaults (batch window, outbox bounds). */
  agent?: Partial<AgentOptions>;
  /** Opens the hub connection. Default true. */
  hub?: boolean;
  /** Runs the updater on simulated boot slots. Default: no updates. */
  updates?: FleetUpdates;
}

const gauges = ['queued', 'queuedBytes', 'held'] as const;
type Gauge = (typeof gauges)[number];
const counterNames = (Object.keys(createCounters()) as (keyof AgentCounters)[]).filter(
  (name): name is Exclude<keyof AgentCounters, Gauge> => !(gauges as readonly string[]).includes(name),
);

export class FleetDevice {
  readonly meter: DeviceMeter;
  readonly store = new MemoryStore();
  /** Counters summed over earlier lives (reboots). */
  readonly previous: AgentCounters = createCounters();
  hubState: HubStateKind = 'idle';
  /** Monotonic time the hub last reached `connected`. */
  hubConnectedMs: number | undefined;
  private readonly connectedWaiters = new Set<() => void>();
  reboots = 0;
  /** Restarts into an installed image or back after a failed trial. */
  updateRestarts = 0;
  /** With `updates`: the boot slots (kept over restarts, like the store), the current life's updater. */
  slots: SimSlots | undefined;
  updater: Updater | undefined;
  private agent: Agent | undefined;
  private hub: HubClient | undefined;
  private glue: AgentLink | undefined;
  private readonly lives = new LifeQueue();

  constructor(
    readonly member: FleetMember,
    private readonly context: FleetDeviceContext,
  ) {
    this.meter = new DeviceMeter(member.key);
  }

  get running(): boolean {
    return this.agent !== undefined;
  }

  /** Counters of every life, the current one included (gauges: the current life's). */
  counters(): AgentCounters {
    const total = { ...this.previous };
    const now = this.agent?.counters;
    if (now !== undefined) {
      for (const name of counterNames) total[name] += now[name];
      for (const name of gauges) total[name] = now[name];
    }
    return total;
  }

  /** Restarts asked for after the end of the run (skipped: the board was switched off first). */
  get restartsAfterEnd(): number {
    return this.lives.skipped;
  }

  /** Builds the object graph and starts it; resolves after the first configuration attempt. */
  start(): Promise<void> {
    return this.lives.run(() => this.startLife());
  }

  private async startLife(): Promise<void> {
    if (this.agent !== undefined) return;
    const { clock, logger, service } = this.context;
    const { http, sockets } = this.context.link.forDevice(this.meter);
    const pins = new SimPins(clock);
    const custom = new CustomChannels(logger);
    const simulated = new SimulatedDevice({ clock, pins, custom, logger });
    const receiver = simulatedGnssSerial('simulated', clock, () => '');
    const port = { port: 'simulated', baudRate: receiver.baudRate };
    const gnss = new GnssLocationProvider({ serial: receiver, port, clock, logger });
    const access = { baseUrl: service, device: this.member.key, token: this.member.token };
    const updates = this.context.updates;
    let updater: Updater | undefined;
    const agent = new Agent({
      clock,
      http: updates === undefined ? http : watchDelivery(http, () => updater?.delivered()),
      store: this.store,
      logger,
      service: access,
      providers: [simulated, new PinChannelProvider(pins), custom, gnss],
      ...this.context.agent,
    });
    this.agent = agent;
    if (updates !== undefined) {
      const slots = (this.slots ??= new SimSlots(updates.version, updates.identify, () => this.restartForUpdate()));
      updater = lifeUpdater(updates, { clock, http, store: this.store, logger, client: agent.client, slots });
      this.updater = updater;
    }
    await agent.start();
    if (updater !== undefined && this.agent === agent) void updater.start();
    if (this.context.hub === false || this.agent !== agent) return;
    const hub = new HubClient({ baseUrl: service, accessToken: () => access.token, http, sockets, clock, logger });
    hub.listen((state) => {
      if (typeof state === 'object') return; // a message: the link's
      this.hubState = state;
      if (state !== 'connected') return;
      this.hubConnectedMs = clock.monotonicMs();
      updater?.hubConnected();
      for (const waiter of [...this.connectedWaiters]) waiter();
    });
    this.glue = linkAgent(hub, agent, logger, {
      ...(agent.device === undefined ? {} : { deviceUid: agent.device.uid }),
      ...(updater === undefined ? {} : { properties: (values: unknown) => updater?.offer(values) }),
    });
    this.hub = hub;
    hub.start();
  }

  /**
   * Resolves with the monotonic time the hub connected at or after `sinceMs`,
   * or undefined when that did not happen within `maxWaitMs`.
   */
  whenHubConnected(sinceMs: number, maxWaitMs: number): Promise<number | undefined> {
    const { clock } = this.context;
    const connected = (): number | undefined =>
      this.hubConnectedMs !== undefined && this.hubConnectedMs >= sinceMs ? this.hubConnectedMs : undefined;
    if (connected() !== undefined) return Promise.resolve(connected());
    return new Promise((resolve) => {
      const done = (): void => {
        if (connected() === undefined && clock.monotonicMs() < sinceMs + maxWaitMs) return;
        this.connectedWaiters.delete(done);
        clock.clearTimer(timer);
        resolve(connected());
      };
      const timer = clock.setTimer(() => {
        this.connectedWaiters.delete(done);
        resolve(connected());
      }, maxWaitMs);
      this.connectedWaiters.add(done);
    });
  }

  /** Stops after the request in flight (if any) is answered, waiting at most `maxWaitMs`. */
  stop(maxWaitMs = 10000): Promise<void> {
    return this.lives.run(() => this.stopLife(maxWaitMs));
  }

  private async stopLife(maxWaitMs = 10000): Promise<void> {
    const agent = this.agent;
    if (agent === undefined) return;
    this.updater?.stop();
    this.updater = undefined;
    this.hub?.stop();
    this.glue?.close();
    this.hub = undefined;
    this.glue = undefined;
    this.hubState = 'stopped';
    // Agent.stop() closes the open batch, and closing a batch kicks a delivery that
    // stop() then abandons (the batch stays queued and goes out again after the
    // restart: a duplicate). So close and deliver the open batch first; stop in the
    // same turn as a flush that started nothing.
    const deadline = this.context.clock.monotonicMs() + maxWaitMs;
    for (;;) {
      await whenNotSending(this.context.clock, agent, Math.max(0, deadline - this.context.clock.monotonicMs()));
      agent.flush();
      if (agent.delivery !== 'sending' || this.context.clock.monotonicMs() >= deadline) break;
    }
    agent.stop();
    const c = agent.counters;
    for (const name of counterNames) this.previous[name] += c[name];
    for (const name of gauges) this.previous[name] = c[name];
    this.agent = undefined;
  }

  /**
   * Delivers what is left in the outbox without sampling (the end of a run):
   * the agent's own sender code over its outbox; resolves when the outbox is
   * empty or `maxWaitMs` passed, with the records still queued. It waits for a
   * restart under way (and drains the new life); no restart follows it.
   */
  drain(maxWaitMs: number): Promise<number> {
    return this.lives.end(() => this.drainLife(maxWaitMs));
  }

  private async drainLife(maxWaitMs: number): Promise<number> {
    const agent = this.agent;
    if (agent === undefined) return 0;
    await this.stopLife();
    return drainOutbox(agent, this.context.clock, this.context.logger, maxWaitMs, this.previous);
  }

  /** The updater installed an image or rolls back: restart (after its call) into what `boot()` picks. */
  private restartForUpdate(): void {
    const restart = async (): Promise<void> => {
      await this.stopLife();
      this.slots?.boot();
      this.updateRestarts++;
      await this.startLife();
    };
    this.lives.unlessEnded(restart).catch((e: unknown) =>
      this.context.logger.log('error', 'fleet: restart after an update failed', {
        device: this.member.key,
        error: String(e),
      }),
    );
  }
}
