/**
 * The demo device that the field benches drive: the agent core on fake pins and
 * a fake store, talking to the local service at `serviceUrl`, and its hub
 * client. One place for the set-up shared by echo.ts and outage.ts.
 */
import { Agent } from '../../src/agent/agent.js';
import type { AgentOptions } from '../../src/agent/agent-options.js';
import { PinChannelProvider } from '../../src/pins/provider.js';
import type { Clock, HttpTransport, Logger } from '../../src/ports.js';
import { HubClient } from '../../src/signalr/hub-client.js';
import { NodeWebSocketFactory } from '../../targets/node/websocket.js';
import { FakePins } from '../../test/fakes/fake-pins.js';
import { FakeStore } from '../../test/fakes/fake-store.js';
import { demo } from '../../test/signalr/support/loopback.js';

export interface DemoDeviceContext {
  serviceUrl: string;
  clock: Clock;
  http: HttpTransport;
  logger: Logger;
}

/** The agent of the demo device (not started). */
export function demoAgent(context: DemoDeviceContext, options: Partial<AgentOptions> = {}): Agent {
  const { serviceUrl, clock, http, logger } = context;
  return new Agent({
    clock,
    http,
    store: new FakeStore(),
    logger,
    service: { baseUrl: serviceUrl, device: demo.deviceKey, token: demo.token },
    providers: [new PinChannelProvider(new FakePins())],
    ...options,
  });
}

/** The demo device's hub client (not started). */
export function demoHub(context: DemoDeviceContext): HubClient {
  const { serviceUrl, clock, http, logger } = context;
  return new HubClient({
    baseUrl: serviceUrl,
    accessToken: () => demo.token,
    http,
    sockets: new NodeWebSocketFactory(),
    clock,
    logger,
  });
}
