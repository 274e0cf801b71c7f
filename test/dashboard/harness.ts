/**
 * The set-up the dashboard's browser suites share: per suite, a scratch
 * directory, the local service with the demo fixture on loopback port 0, the
 * simulated device demo-001 (the agent on the Node target, hub on, simulated
 * GNSS, Modbus slave and J1939 engine) in real time, and headless Chromium.
 * Without chromium the suite skips and prints why. Figures a suite records
 * are printed after it as one JSON line.
 */
import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { demoFixturePath } from '../../host-sim/service/fixture.js';
import { startService, type RunningService } from '../../host-sim/service/index.js';
import { parseDeviceOptions, startSimulatedAgent, type SimulatedAgentRuntime } from '../../host-sim/hardware/agent.js';
import { FakeLogger } from '../fakes/fake-logger.js';
import { demo } from '../service/helpers.js';
import { findChromium, launch, openPage, type Win } from './browser.js';

export interface DashboardHarness {
  readonly dir: string;
  readonly service: RunningService;
  readonly agent: SimulatedAgentRuntime;
  readonly browser: Browser;
  readonly figures: Record<string, number>;
  /** POST to `/api/v1/<path>`; asserts 200. */
  post(path: string, body: unknown, token?: string): Promise<unknown>;
  /** GET `/api/v1/<path>`, parsed. */
  get(path: string, token?: string): Promise<unknown>;
  /** A page already signed in (the token placed in sessionStorage as the sign-in form does). */
  signedIn(hash: string, width?: number, token?: string, device?: string): Promise<{ page: Page; errors: string[] }>;
  tileValue(page: Page, key: string): Promise<string>;
  waitConnected(page: Page): Promise<void>;
  /** Clicks the relay switch `rounds` times; each must show pending, then confirmed. Click-to-screen times in ms. */
  relayRounds(page: Page, device: SimulatedAgentRuntime, rounds: number): Promise<number[]>;
}

export function useDashboard(label: string): DashboardHarness {
  let res: { dir: string; service: RunningService; agent: SimulatedAgentRuntime; browser: Browser } | undefined;
  const figures: Record<string, number> = {};
  const now = (): NonNullable<typeof res> => {
    if (res === undefined) throw new Error('dashboard harness: used outside its suite');
    return res;
  };

  before(async function () {
    this.timeout(60_000);
    const found = findChromium();
    if ('reason' in found) {
      process.stdout.write(`    (dashboard browser tests skipped: ${found.reason})\n`);
      this.skip();
    }
    const dir = mkdtempSync(join(tmpdir(), 'dds-dashboard-'));
    const service = await startService({ fixture: demoFixturePath, host: '127.0.0.1', dbPath: join(dir, 'dds.db') });
    const args = [
      '--service',
      service.url,
      '--device',
      'demo-001',
      '--token',
      demo.token1,
      '--store',
      join(dir, 'device'),
    ];
    const buses = ['--gnss', 'simulated', '--bus', 'rs485=sim', '--bus', 'can0=j1939-sim'];
    const agent = await startSimulatedAgent(
      parseDeviceOptions([...args, ...buses], {}, () => ''),
      {
        logger: new FakeLogger(),
        hub: true,
      },
    );
    res = { dir, service, agent, browser: await launch(found.path) };
    // Tests click the device's outputs: its hub connection must be up first (bounded wait).
    const deadline = Date.now() + 20_000;
    while (agent.hub?.status !== 'connected' && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    assert.equal(agent.hub?.status, 'connected', 'the simulated device connected to the hub');
  });

  after(async () => {
    const r = res;
    res = undefined;
    await r?.browser.close();
    r?.agent.stop();
    await r?.service.close();
    if (r !== undefined) rmSync(r.dir, { recursive: true, force: true });
    if (Object.keys(figures).length > 0) process.stdout.write(`    ${label} figures: ${JSON.stringify(figures)}\n`);
  });

  return {
    get dir() {
      return now().dir;
    },
    get service() {
      return now().service;
    },
    get agent() {
      return now().agent;
    },
    get browser() {
      return now().browser;
    },
    figures,
    async post(path, body, token = demo.admin) {
      const r = await fetch(`${now().service.url}/api/v1/${path}`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });
      assert.equal(r.status, 200, await r.clone().text());
      return r.json();
    },
    async get(path, token = demo.admin) {
      const r = await fetch(`${now().service.url}/api/v1/${path}`, { headers: { Authorization: `Bearer ${token}` } });
      return r.json();
    },
    async signedIn(hash, width = 1200, token = demo.admin, device = '') {
      const p = await openPage(now().browser, width);
      await p.page.addInitScript(
        ([t, d]) => {
          const w = globalThis as unknown as Win;
          w.sessionStorage.setItem('dds.token', t as string);
          if (d !== '') w.sessionStorage.setItem('dds.device', d as string);
        },
        [token, device],
      );
      await p.page.goto(`${now().service.url}/${hash}`);
      return p;
    },
    tileValue: (page, key) => page.locator(`[data-channel="${key}"] .value`).first().innerText(),
    async waitConnected(page) {
      await page.waitForSelector('#hub-status[data-state="connected"]', { timeout: 10_000 });
    },
    async relayRounds(page, device, rounds) {
      await this.waitConnected(page);
      await page.waitForSelector('[data-channel="relay"] input[role="switch"]');
      // The device's own hub connection (dropped by an earlier test) must be up before timing.
      const deadline = Date.now() + 15_000;
      while (device.hub?.status !== 'connected' && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      assert.equal(device.hub?.status, 'connected');
      const latencies: number[] = [];
      for (let i = 0; i < rounds; i++) {
        const [outcome, ms, sawPending] = await page.evaluate(
          () =>
            new Promise<[string, number, boolean]>((resolve) => {
              const w = globalThis as unknown as Win;
              const tile = w.document.querySelector('[data-channel="relay"]');
              const input = tile?.querySelector('input');
              if (!tile || !input) return resolve(['no relay switch', 0, false]);
              let sawPending = false;
              const t0 = w.performance.now();
              const mo = new w.MutationObserver(() => {
                const state = tile.dataset['write'];
                if (state === 'pending') sawPending = true;
                else if (state !== undefined && state !== 'idle') {
                  mo.disconnect();
                  // On screen: the next frame after the text changed.
                  w.requestAnimationFrame(() => resolve([state, w.performance.now() - t0, sawPending]));
                }
              });
              mo.observe(tile, { attributes: true, attributeFilter: ['data-write'] });
              input.click();
            }),
        );
        assert.equal(outcome, 'confirmed', `round ${i}`);
        assert.ok(sawPending, 'the control showed pending first');
        latencies.push(ms);
      }
      return latencies;
    },
  };
}
