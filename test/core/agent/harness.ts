/**
 * Builds an agent on fakes for the agent's portable tests: FakeClock, FakeHttp
 * (with a tiny service behind it), FakeStore, FakePins and FakeLogger.
 */
import { Agent } from '../../../src/agent/agent.js';
import type { AgentOptions } from '../../../src/agent/agent-options.js';
import type { ChannelDriverProvider } from '../../../src/agent/driver.js';
import { CustomChannels } from '../../../src/custom/provider.js';
import { PinChannelProvider } from '../../../src/pins/provider.js';
import { FakeClock } from '../../fakes/fake-clock.js';
import { FakeHttp } from '../../fakes/fake-http.js';
import type { HttpRequest, HttpResponse } from '../../../src/ports.js';
import { FakeLogger } from '../../fakes/fake-logger.js';
import { FakePins } from '../../fakes/fake-pins.js';
import { FakeStore } from '../../fakes/fake-store.js';

/** A channel entry as the service sends it (wire names, decisions 1). */
export function ch(key: string, type: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { uid: `uid-${key}`, key, name: key, type, scanInterval: 100, ...extra };
}

export interface World {
  clock: FakeClock;
  http: FakeHttp;
  store: FakeStore;
  pins: FakePins;
  logger: FakeLogger;
  custom: CustomChannels;
  agent: Agent;
}

export interface WorldOptions {
  channels?: unknown[];
  clock?: FakeClock;
  http?: FakeHttp;
  store?: FakeStore;
  pins?: FakePins;
  extraProviders?: ChannelDriverProvider[];
  agent?: Partial<AgentOptions>;
}

/** A retry policy without jitter, so tests know when the next attempt is. */
export const fixedRetry = { nextDelayMs: (attempt: number): number => Math.min(1000 * attempt, 5000) };

export function world(options: WorldOptions = {}): World {
  const clock = options.clock ?? new FakeClock();
  const http = options.http ?? new FakeHttp();
  if (options.channels !== undefined) http.channels = { buses: [], channels: options.channels };
  const store = options.store ?? new FakeStore();
  const pins = options.pins ?? new FakePins();
  const logger = new FakeLogger();
  const custom = new CustomChannels(logger);
  const agent = new Agent({
    clock,
    http,
    store,
    logger,
    service: { baseUrl: 'http://dds.test', device: 'dev', token: 'device-token' },
    providers: [new PinChannelProvider(pins), custom, ...(options.extraProviders ?? [])],
    retry: fixedRetry,
    batch: { maxRecords: 50, maxBytes: 16384, maxAgeMs: 1000 },
    ...options.agent,
  });
  return { clock, http, store, pins, logger, custom, agent };
}

/** Wire seconds of a FakeClock moment (monotonic ms). */
export function wireSeconds(clock: FakeClock, monotonicMs: number): number {
  return (clock.wallMs() - clock.monotonicMs() + monotonicMs) / 1000;
}

/** A service that answers `channels/list` pretty-printed (its text is not what JSON.stringify makes). */
export class PrettyHttp extends FakeHttp {
  override async request(request: HttpRequest): Promise<HttpResponse> {
    const answer = await super.request(request);
    if (!request.url.includes('/channels/list') || answer.status !== 200) return answer;
    return { ...answer, body: JSON.stringify(this.channels, null, 2) };
  }
}
