/**
 * Per-test set-up of the hub client's loopback tests: the local service with
 * the demo fixture on port 0, our hub client over real sockets (its timers on
 * a FakeClock, see loopback.ts), the agent side behind a DesiredStateSink, the
 * glue between them, and an invoker; all closed again after each test.
 */
import { startService, type RunningService } from '../../../host-sim/service/index.js';
import type { DesiredStateSink } from '../../../src/agent/desired.js';
import { linkAgent, type AgentLink } from '../../../src/signalr/agent-hub.js';
import { HubInvoker } from '../../../src/signalr/hub-invoker.js';
import { notifiedProperties } from '../../../src/signalr/properties.js';
import type { HubClientOptions } from '../../../src/signalr/options.js';
import { demo, demoFixture, loopbackClient, type LoopbackClient } from './loopback.js';

/** What each test of a suite sees (valid inside a test and its hooks only). */
export interface HubSession<S extends DesiredStateSink> {
  readonly service: RunningService;
  readonly c: LoopbackClient;
  readonly sink: S;
  readonly link: AgentLink;
  /** The device's own invocations (SetProperties) over the client. */
  readonly invoker: HubInvoker;
}

export interface HubSessionOptions<S extends DesiredStateSink> {
  /** Builds the agent side, once the service runs. */
  sink(service: RunningService): S | Promise<S>;
  /** Overrides of the hub client's options. */
  client?: Partial<HubClientOptions>;
  /** Starts the client and waits until it is connected, before each test. Default false. */
  connect?: boolean;
  /** Closes the agent side after the client and the glue, before the service. */
  closeSink?(sink: S): void;
  /** Asserts after each test that the client logged no error. Default false. */
  assertNoErrors?: boolean;
}

/** Registers the hooks that give each test of the calling suite a fresh service, client, sink and link. */
export function useHubSession<S extends DesiredStateSink>(options: HubSessionOptions<S>): HubSession<S> {
  let current: HubSession<S> | undefined;
  const session = (): HubSession<S> => {
    if (current === undefined) throw new Error('hub session: used outside a test');
    return current;
  };
  beforeEach(async () => {
    const service = await startService({ fixture: demoFixture });
    const c = loopbackClient(service.url, options.client);
    const sink = await options.sink(service);
    const link = linkAgent(c.client, sink, c.logger, {
      deviceUid: demo.device,
      properties: notifiedProperties(sink),
    });
    const invoker = new HubInvoker(c.client, { clock: c.clock });
    current = { service, c, sink, link, invoker };
    if (options.connect !== true) return;
    c.client.start();
    await c.until('connected');
  });
  afterEach(async () => {
    const { service, c, sink, link } = session();
    current = undefined;
    c.client.stop();
    link.close();
    options.closeSink?.(sink);
    await service.close();
    if (options.assertNoErrors === true) c.logger.assertNoErrors();
  });
  return {
    get service() {
      return session().service;
    },
    get c() {
      return session().c;
    },
    get sink() {
      return session().sink;
    },
    get link() {
      return session().link;
    },
    get invoker() {
      return session().invoker;
    },
  };
}
