/**
 * Shared set-up of the end-to-end tests: the local service on loopback (port
 * 0, its clock tied to the test's FakeClock wall time), agents on the Node
 * target driven by that FakeClock, and a pump that advances fake time while
 * letting real loopback I/O complete between steps (bounded waits on a
 * condition, never a fixed sleep).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Agent, AgentOptions } from '../../src/agent/agent.js';
import { startService, type RunningService } from '../../host-sim/service/index.js';
import { parseOptions } from '../../targets/node/options.js';
import { startNodeAgent, type NodeAgentRuntime } from '../../targets/node/runtime.js';
import { FileStore } from '../../targets/node/store.js';
import { FakeClock } from '../fakes/fake-clock.js';
import { FakeLogger } from '../fakes/fake-logger.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
export const demoFixture = join(root, 'host-sim', 'service', 'fixtures', 'demo.json');
export const adminToken = 'admin-token-demo';

export function tempDir(): { path: string; remove(): void } {
  const path = mkdtempSync(join(tmpdir(), 'dds-e2e-'));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}

export function startDemoService(clock: FakeClock, dbPath: string, port = 0): Promise<RunningService> {
  return startService({ fixture: demoFixture, port, host: '127.0.0.1', dbPath, now: () => clock.wallMs() });
}

export async function startDemoAgent(
  url: string,
  clock: FakeClock,
  storeDir: string,
  agent: Partial<AgentOptions> = {},
  hub = false,
): Promise<NodeAgentRuntime & { log: FakeLogger }> {
  const options = parseOptions(
    ['--service', url, '--device', 'demo-001', '--token', 'device-token-demo-001'],
    {},
    () => '',
  );
  const log = new FakeLogger();
  const retry = { nextDelayMs: () => 1000 };
  const runtime = await startNodeAgent(options, {
    clock,
    logger: log,
    store: new FileStore(storeDir),
    agent: { retry, ...agent },
    hub,
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
