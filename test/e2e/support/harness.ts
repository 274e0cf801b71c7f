/**
 * The Node-side end-to-end harness shared by the e2e, GNSS and bus tests: a
 * scratch directory and the local service on loopback (port 0, its clock tied
 * to the test's FakeClock wall time) per test, agents on the Node target
 * (driven by that FakeClock, or by real time), a pump that advances fake time
 * while letting real loopback I/O complete between steps (bounded waits on a
 * condition, never a fixed sleep), and readers of what reached the service.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Agent } from '../../../src/agent/agent.js';
import type { AgentOptions } from '../../../src/agent/agent-options.js';
import { demoFixturePath } from '../../../host-sim/service/fixture.js';
import { startService, type Fixture, type RunningService } from '../../../host-sim/service/index.js';
import {
  parseDeviceOptions,
  startSimulatedAgent,
  type SimulatedAgentRuntime,
} from '../../../host-sim/hardware/agent.js';
import { FileStore } from '../../../targets/node/store.js';
import type { FakeClock } from '../../fakes/fake-clock.js';
import { FakeLogger } from '../../fakes/fake-logger.js';

export { demoFixturePath as demoFixture } from '../../../host-sim/service/fixture.js';
export const adminToken = 'admin-token-demo';

/** A fresh scratch directory under the OS temp directory. */
export function tempDir(): { path: string; remove(): void } {
  const path = mkdtempSync(join(tmpdir(), 'dds-e2e-'));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}

/** An agent started by the harness, with the logger it writes to. */
export type DemoAgent = SimulatedAgentRuntime & { log: FakeLogger };

export interface DemoAgentOptions {
  /** Extra command-line arguments after the service, device and token (e.g. `--bus`, `--gnss`). */
  args?: string[];
  /** Agent options over the harness's (a 1 s retry delay). */
  agent?: Partial<AgentOptions>;
  /** Opens the hub connection. Default false. */
  hub?: boolean;
  /** The device store directory; default `<dir>/device`. */
  storeDir?: string;
}

/** Per-test resources of an end-to-end suite (see `useE2eHarness`). */
export interface E2eHarness {
  /** The current test's scratch directory. */
  readonly dir: string;
  /** Starts the service (default the demo fixture) on `<dir>/dds.db`; the harness closes it after the test. */
  startService(clock?: FakeClock, port?: number, fixture?: string | Fixture): Promise<RunningService>;
  /** Closes the running service now (the agent goes offline). */
  stopService(): Promise<void>;
  /** Starts demo-001 on the Node target against `url` (real time when `clock` is undefined). */
  startAgent(url: string, clock: FakeClock | undefined, options?: DemoAgentOptions): Promise<DemoAgent>;
}

/** Registers the hooks that give each test of the calling suite a scratch directory and a closed service. */
export function useE2eHarness(): E2eHarness {
  let dir: ReturnType<typeof tempDir> | undefined;
  let service: RunningService | undefined;
  const path = (): string => {
    if (dir === undefined) throw new Error('e2e harness: used outside a test');
    return dir.path;
  };
  const stopService = async (): Promise<void> => {
    const running = service;
    service = undefined;
    await running?.close();
  };
  beforeEach(() => {
    dir = tempDir();
  });
  afterEach(async () => {
    await stopService();
    dir?.remove();
    dir = undefined;
  });
  return {
    get dir() {
      return path();
    },
    startService: async (clock, port = 0, fixture = demoFixturePath) => {
      const dbPath = join(path(), 'dds.db');
      const now = clock === undefined ? {} : { now: () => clock.wallMs() };
      service = await startService({ fixture, port, host: '127.0.0.1', dbPath, ...now });
      return service;
    },
    stopService,
    startAgent: (url, clock, options = {}) =>
      startDemoAgent(url, clock, { storeDir: join(path(), 'device'), ...options }),
  };
}

async function startDemoAgent(
  url: string,
  clock: FakeClock | undefined,
  options: DemoAgentOptions,
): Promise<DemoAgent> {
  const args = ['--service', url, '--device', 'demo-001', '--token', 'device-token-demo-001'];
  const parsed = parseDeviceOptions([...args, ...(options.args ?? [])]);
  const log = new FakeLogger();
  const runtime = await startSimulatedAgent(parsed, {
    ...(clock === undefined ? {} : { clock }),
    ...(options.storeDir === undefined ? {} : { store: new FileStore(options.storeDir) }),
    logger: log,
    agent: { retry: { nextDelayMs: () => 1000 }, ...options.agent },
    hub: options.hub ?? false,
  });
  return { ...runtime, log };
}

/** Waits (real time, bounded) until `done()`; fails after `limitMs`. */
export async function until(done: () => boolean, limitMs = 5000): Promise<void> {
  const start = Date.now();
  while (!done()) {
    if (Date.now() - start > limitMs) throw new Error('until: condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

/** Advances fake time in steps, letting each step's HTTP exchanges finish. */
export async function pump(clock: FakeClock, agent: Agent, ms: number, stepMs = 100): Promise<void> {
  for (let t = 0; t < ms; t += stepMs) {
    clock.advance(Math.min(stepMs, ms - t));
    await new Promise((resolve) => setImmediate(resolve));
    await until(() => agent.delivery !== 'sending');
  }
}

export interface ReadState {
  channel: string;
  value?: unknown;
  error?: number;
  timestamp: number;
}

/** `states/read` of demo-001 through HTTP, channel names without the product prefix. */
export async function readStates(url: string, channels: string, startSeconds: number): Promise<ReadState[]> {
  const q = `devices=demo-001&channels=${encodeURIComponent(channels)}&timeRangeStart=${startSeconds}`;
  const response = await fetch(`${url}/api/v1/states/read?${q}`, {
    headers: { authorization: `Bearer ${adminToken}` },
  });
  if (response.status !== 200) throw new Error(`states/read: ${response.status} ${await response.text()}`);
  const body = (await response.json()) as ReadState[];
  return body
    .map((r) => ({ ...r, channel: r.channel.slice(r.channel.indexOf(':') + 1) }))
    .sort((a, b) => a.timestamp - b.timestamp || a.channel.localeCompare(b.channel));
}
