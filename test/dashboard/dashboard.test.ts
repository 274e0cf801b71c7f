/**
 * The web dashboard in a real browser (headless Chromium from Debian's
 * package, driven by playwright-core): the local service with the demo
 * fixture and the simulated device demo-001 running the agent on the Node
 * target (hub on, simulated GNSS, Modbus slave and J1939 engine), both in real time on loopback port 0.
 *
 * Proves: sign-in with a token kept in sessionStorage and never in the URL;
 * the device list and its search; the device page grouped as configured,
 * with first values under a second; a live value changing without a reload;
 * a relay switch round trip (pending, then confirmed by the device's echo);
 * a refused value showing the device's errno; the GNSS track drawn and
 * growing live; properties edited and updated live; range zoom; a device
 * token seeing only its device; phone width and keyboard reach.
 *
 * Figures (printed as one JSON line): page open to first values, desired
 * click to confirmed echo on screen (p50/p99), Notify to screen, page weight.
 * DASHBOARD_SCREENSHOTS=1 writes docs/dashboard-*.png.
 */
import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Browser, Page } from 'playwright-core';
import { demoFixturePath } from '../../host-sim/service/fixture.js';
import { startService, type RunningService } from '../../host-sim/service/index.js';
import { parseOptions } from '../../targets/node/options.js';
import { startNodeAgent, type NodeAgentRuntime } from '../../targets/node/runtime.js';
import { FakeLogger } from '../fakes/fake-logger.js';
import { demo, repoRoot } from '../service/helpers.js';
import { findChromium, launch, openPage, percentile, type Win } from './browser.js';

const screenshots = process.env['DASHBOARD_SCREENSHOTS'] === '1';

describe('web dashboard in Chromium', function () {
  this.timeout(60_000);
  let dir: string;
  let service: RunningService;
  let agent: NodeAgentRuntime;
  let browser: Browser;
  const figures: Record<string, number> = {};

  before(async function () {
    const found = findChromium();
    if ('reason' in found) {
      process.stdout.write(`    (dashboard browser tests skipped: ${found.reason})\n`);
      this.skip();
    }
    dir = mkdtempSync(join(tmpdir(), 'dds-dashboard-'));
    service = await startService({ fixture: demoFixturePath, host: '127.0.0.1', dbPath: join(dir, 'dds.db') });
    const args = ['--service', service.url, '--device', 'demo-001', '--token', demo.token1];
    const options = parseOptions(
      [...args, '--store', join(dir, 'device'), '--gnss', 'simulated', '--bus', 'rs485=sim', '--bus', 'can0=j1939-sim'],
      {},
      () => '',
    );
    agent = await startNodeAgent(options, { logger: new FakeLogger(), hub: true });
    browser = await launch(found.path);
  });

  after(async () => {
    await browser?.close();
    agent?.stop();
    await service?.close();
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
    if (Object.keys(figures).length > 0) process.stdout.write(`    dashboard figures: ${JSON.stringify(figures)}\n`);
  });

  const post = async (path: string, body: unknown, token: string = demo.admin): Promise<unknown> => {
    const r = await fetch(`${service.url}/api/v1/${path}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
    assert.equal(r.status, 200, await r.clone().text());
    return r.json();
  };
  const get = async (path: string, token: string = demo.admin): Promise<unknown> => {
    const r = await fetch(`${service.url}/api/v1/${path}`, { headers: { Authorization: `Bearer ${token}` } });
    return r.json();
  };

  /** A page already signed in (the token placed in sessionStorage as the sign-in form does). */
  async function signedIn(
    hash: string,
    width = 1200,
    token: string = demo.admin,
    device = '',
  ): Promise<{ page: Page; errors: string[] }> {
    const p = await openPage(browser, width);
    await p.page.addInitScript(
      ([t, d]) => {
        const w = globalThis as unknown as Win;
        w.sessionStorage.setItem('dds.token', t as string);
        if (d !== '') w.sessionStorage.setItem('dds.device', d as string);
      },
      [token, device],
    );
    await p.page.goto(`${service.url}/${hash}`);
    return p;
  }

  const tileValue = (page: Page, key: string): Promise<string> =>
    page.locator(`[data-channel="${key}"] .value`).first().innerText();

  async function waitConnected(page: Page): Promise<void> {
    await page.waitForSelector('#hub-status[data-state="connected"]', { timeout: 10_000 });
  }

  it('signs in with an access token kept in sessionStorage, never in the URL', async () => {
    const { page, errors } = await openPage(browser);
    try {
      await page.goto(`${service.url}/`);
      await page.fill('#token', 'not-a-token');
      await page.click('button[type=submit]');
      await page.waitForSelector('.sign-in .error:has-text("401")');
      await page.fill('#token', demo.admin);
      await page.press('#token', 'Enter');
      await page.waitForSelector('tr[data-device="demo-002"]');
      assert.equal(await page.locator('tbody tr').count(), 2);
      assert.ok(!page.url().includes(demo.admin), page.url());
      assert.equal(
        await page.evaluate(() => (globalThis as unknown as Win).sessionStorage.getItem('dds.token')),
        demo.admin,
      );
      await waitConnected(page);
      await page.reload();
      await page.waitForSelector('tr[data-device="demo-001"]');
      await page.click('#sign-out');
      await page.waitForSelector('#token');
      assert.equal(await page.evaluate(() => (globalThis as unknown as Win).sessionStorage.getItem('dds.token')), null);
      assert.deepEqual(
        errors.filter((e) => !e.includes('401')),
        [],
      );
    } finally {
      await page.close();
    }
  });

  it('lists devices with enabled state and last seen, and searches with the API q', async () => {
    const { page, errors } = await signedIn('#/');
    try {
      await page.waitForSelector('tr[data-device="demo-001"]');
      const seen = page.locator('tr[data-device="demo-001"] .last-seen');
      await page.waitForFunction(() =>
        (globalThis as unknown as Win).document
          .querySelector('tr[data-device="demo-001"] .last-seen')
          ?.textContent?.endsWith('ago'),
      );
      assert.match(await seen.innerText(), /ago$/);
      assert.equal(await page.locator('tr[data-device="demo-002"] td').nth(2).innerText(), 'yes');
      const queries: string[] = [];
      page.on('request', (r) => {
        if (r.url().includes('devices/list')) queries.push(new URL(r.url()).searchParams.get('q') ?? '');
      });
      await page.fill('#device-search', 'board 2');
      await page.waitForFunction(
        () => (globalThis as unknown as Win).document.querySelectorAll('tbody tr').length === 1,
      );
      assert.equal(await page.locator('tbody tr').getAttribute('data-device'), 'demo-002');
      await page.fill('#device-search', 'warehouse');
      await page.waitForFunction(
        () =>
          (globalThis as unknown as Win).document.querySelector('tbody tr')?.getAttribute('data-device') === 'demo-001',
      );
      assert.equal(await page.locator('tbody tr').count(), 1);
      assert.ok(queries.includes('board 2') && queries.includes('warehouse'), queries.join('|'));
      assert.deepEqual(errors, []);
    } finally {
      await page.close();
    }
  });

  it('opens a device page grouped as configured, and times the first values', async () => {
    // In-page time: from the navigation's start (performance.now() = 0) to the first value in the DOM.
    const times: number[] = [];
    const wall: number[] = [];
    for (let i = 0; i < 5; i++) {
      const { page, errors } = await openPage(browser);
      try {
        await page.addInitScript(
          (t) => (globalThis as unknown as Win).sessionStorage.setItem('dds.token', t),
          demo.admin,
        );
        const started = Date.now();
        await page.goto(`${service.url}/#/device/${demo.device1}`, { waitUntil: 'commit' });
        const at = await page.waitForFunction(
          () => {
            const w = globalThis as unknown as Win;
            const v = w.document.querySelector('[data-channel="temperature"] .value')?.textContent;
            return v !== undefined && v !== '—' ? w.performance.now() : false;
          },
          undefined,
          { polling: 'raf' },
        );
        times.push(Math.round(Number(await at.jsonValue())));
        wall.push(Date.now() - started);
        if (i === 0) {
          const groups = await page.locator('section.group h3').allInnerTexts();
          assert.deepEqual(groups, [
            'Environment',
            'Power',
            'Inputs',
            'Outputs',
            'Location',
            'Meter',
            'Engine',
            'Application',
          ]);
          const meter = await page
            .locator('section.group[aria-label="Meter"] .tile')
            .evaluateAll((els) => els.map((e) => e.getAttribute('data-channel')));
          assert.deepEqual(meter, ['flow', 'total', 'pump', 'setpoint', 'pressure']);
          assert.match(await tileValue(page, 'temperature'), /^-?\d+(\.\d+)? °C$/);
          const weight = await page.evaluate(() => {
            const p = (globalThis as unknown as Win).performance;
            return [...p.getEntriesByType('navigation'), ...p.getEntriesByType('resource')]
              .filter((e) => !e.name.includes('/api/') && !e.name.includes('/hubs/'))
              .reduce((sum, e) => sum + e.encodedBodySize, 0);
          });
          figures['pageWeightBytes'] = weight;
          const html = await (await fetch(`${service.url}/`)).text();
          let gz = gzipSync(html).length;
          for (const m of html.matchAll(/(?:src|href)="(\/dashboard\/[^"]+)"/g)) {
            gz += gzipSync(Buffer.from(await (await fetch(`${service.url}${m[1]}`)).arrayBuffer())).length;
          }
          figures['pageWeightGzipBytes'] = gz;
        }
        assert.deepEqual(errors, []);
      } finally {
        await page.close();
      }
    }
    figures['firstValuesMsMedian'] = percentile(times, 50);
    figures['firstValuesMsMax'] = Math.max(...times);
    figures['firstValuesWallMsMedian'] = percentile(wall, 50);
    // The goal is < 1 s (measured well under it on loopback); the guard leaves room for a CI machine under load.
    assert.ok(percentile(times, 50) < 2000, `median page open to first values ${percentile(times, 50)} ms`);
  });

  it('shows live values without a reload, and the hub state', async () => {
    const { page, errors } = await signedIn(`#/device/${demo.device2}`);
    try {
      await waitConnected(page);
      await page.waitForSelector('[data-channel="temperature"]');
      await page.evaluate(() => ((globalThis as unknown as Win).marker = 42));
      const latencies: number[] = [];
      for (let i = 0; i < 10; i++) {
        const value = 30 + i / 10;
        const started = Date.now();
        await post(
          'states/write',
          { device: 'demo-002', states: [{ channel: 'temperature.reported', value }] },
          demo.token2,
        );
        await page.waitForFunction(
          (v) =>
            (globalThis as unknown as Win).document.querySelector('[data-channel="temperature"] .value')
              ?.textContent === `${v} °C`,
          value,
        );
        latencies.push(Date.now() - started);
      }
      await post(
        'states/write',
        { device: 'demo-002', states: [{ channel: 'battery.reported', error: -110 }] },
        demo.token2,
      );
      await page.waitForFunction(
        () =>
          (globalThis as unknown as Win).document.querySelector('[data-channel="battery"] .value')?.textContent ===
          '-110 ETIMEDOUT',
      );
      assert.equal(await page.evaluate(() => (globalThis as unknown as Win).marker), 42, 'no reload');
      figures['notifyToScreenMsP50'] = percentile(latencies, 50);
      // The hub drops: the header says so, the page reconnects by itself and reads what it missed.
      await page.evaluate(() => {
        const w = globalThis as unknown as Win;
        const status = w.document.getElementById('hub-status');
        w.seen = [];
        const mo = new w.MutationObserver(() => w.seen?.push(status?.dataset['state'] ?? ''));
        if (status) mo.observe(status, { attributes: true, attributeFilter: ['data-state'] });
      });
      service.hub.dropAll();
      await post(
        'states/write',
        { device: 'demo-002', states: [{ channel: 'temperature.reported', value: 12.5 }] },
        demo.token2,
      );
      await page.waitForFunction(
        () =>
          (globalThis as unknown as Win).document.querySelector('[data-channel="temperature"] .value')?.textContent ===
          '12.5 °C',
      );
      await waitConnected(page);
      assert.deepEqual(await page.evaluate(() => (globalThis as unknown as Win).seen?.slice(0, 2)), [
        'reconnecting',
        'connected',
      ]);
      // The simulated device changes its own values too (demo-001's door toggles, its temperature moves).
      await page.goto(`${service.url}/#/device/${demo.device1}`);
      await page.waitForFunction(
        () =>
          (globalThis as unknown as Win).document.querySelector('[data-channel="temperature"] .value')?.textContent !==
          '—',
      );
      const first = await tileValue(page, 'temperature');
      await page.waitForFunction(
        (f) =>
          (globalThis as unknown as Win).document.querySelector('[data-channel="temperature"] .value')?.textContent !==
          f,
        first,
        { timeout: 15_000 },
      );
      assert.deepEqual(errors, []);
    } finally {
      await page.close();
    }
  });

  /** Clicks the relay switch `rounds` times; each must show pending, then confirmed. Click-to-screen times in ms. */
  async function relayRounds(page: Page, device: NodeAgentRuntime, rounds: number): Promise<number[]> {
    await waitConnected(page);
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
  }

  it('switches the relay: pending until the device echoes, then confirmed (and measures it)', async () => {
    const { page, errors } = await signedIn(`#/device/${demo.device1}`);
    try {
      const latencies = await relayRounds(page, agent, 20);
      const checked = await page.locator('[data-channel="relay"] input').isChecked();
      const last = (await get(`states/read/last?device=demo-001&channels=relay.reported`)) as Array<{ value: unknown }>;
      assert.equal(last[0]?.value, checked, 'the device reported what the switch shows');
      assert.match(await page.locator('[data-channel="relay"] .write-state').innerText(), /^confirmed \(\d+ ms\)$/);
      assert.equal(agent.pins.history.filter((w) => w.pin === 5).length >= 20, true, 'the relay pin was driven');
      figures['desiredToEchoMsP50'] = Math.round(percentile(latencies, 50));
      figures['desiredToEchoMsP99'] = Math.round(percentile(latencies, 99));
      figures['desiredToEchoRounds'] = latencies.length;
      assert.deepEqual(errors, []);
    } finally {
      await page.close();
    }
  });

  it('measures the same round trip with a device whose batches close after 20 ms', async () => {
    // demo-002 runs here only: the live-value test before writes its states itself.
    const args = [
      '--service',
      service.url,
      '--device',
      'demo-002',
      '--token',
      demo.token2,
      '--store',
      join(dir, 'device2'),
    ];
    const prompt = await startNodeAgent(
      parseOptions(args, {}, () => ''),
      {
        logger: new FakeLogger(),
        hub: true,
        agent: { batch: { maxAgeMs: 20 } },
      },
    );
    const { page, errors } = await signedIn(`#/device/${demo.device2}`);
    try {
      const latencies = await relayRounds(page, prompt, 20);
      figures['desiredToEchoBatch20MsP50'] = Math.round(percentile(latencies, 50));
      figures['desiredToEchoBatch20MsP99'] = Math.round(percentile(latencies, 99));
      assert.deepEqual(errors, []);
    } finally {
      await page.close();
      prompt.stop();
    }
  });

  it("shows the device's errno when it refuses a value; slides an analog output within its scaled range", async () => {
    const { page, errors } = await signedIn(`#/device/${demo.device1}`);
    try {
      await waitConnected(page);
      const input = page.locator('[data-channel="note"] input[type="number"]');
      await input.fill('1.5'); // customType number takes integers only (decisions 1)
      await input.press('Enter');
      await page.waitForSelector('[data-channel="note"][data-write="refused"]');
      assert.equal(await page.locator('[data-channel="note"] .write-state').innerText(), 'refused: -22 EINVAL');
      assert.equal(await tileValue(page, 'note'), '-22 EINVAL');
      await input.fill('7');
      await input.press('Enter');
      await page.waitForSelector('[data-channel="note"][data-write="confirmed"]');
      assert.equal(await tileValue(page, 'note'), '7');
      // Outside the range the configuration gives (uint16 setpoint), the dashboard refuses before sending.
      await page.locator('[data-channel="setpoint"] input').fill('70000');
      await page.locator('[data-channel="setpoint"] input').press('Enter');
      assert.equal(
        await page.locator('[data-channel="setpoint"] .write-state').innerText(),
        'failed: outside 0 .. 65535',
      );
      // The dimmer's slider spans the scaled 10-bit PWM range (0 .. 100 %) in steps of one count.
      const slider = page.locator('[data-channel="dimmer"] input[type="range"]');
      assert.equal(await slider.getAttribute('min'), '0');
      assert.equal(Number(await slider.getAttribute('max')).toFixed(6), '100.000000');
      await slider.fill('50');
      await page.waitForSelector('[data-channel="dimmer"][data-write="confirmed"]');
      const dimmer = (await get('states/read/last?device=demo-001&channels=dimmer.reported')) as Array<{
        value: number;
      }>;
      assert.ok(Math.abs((dimmer[0]?.value ?? NaN) - 50) < 0.1, `dimmer echoed ${dimmer[0]?.value}`);
      assert.match(await tileValue(page, 'dimmer'), /^(49\.9\d*|50(\.\d+)?) %$/);
      assert.deepEqual(errors, []);
    } finally {
      await page.close();
    }
  });

  it('draws the GNSS track with grid, scale bar and fix quality, growing live', async () => {
    const loc = async (): Promise<{ lat: number; lon: number } | undefined> => {
      const r = (await get('measurements/read/last?device=demo-001&metrics=gps')) as Array<{
        value: { lat: number; lon: number };
      }>;
      return r[0]?.value;
    };
    const deadline = Date.now() + 15_000;
    let here = await loc();
    while (here === undefined && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 200));
      here = await loc();
    }
    assert.ok(here, 'the simulated receiver reported a position');
    const nowS = Date.now() / 1000;
    const seeded = Array.from({ length: 20 }, (_, i) => ({
      metric: 'gps',
      value: { lat: here.lat - (20 - i) * 0.0002, lon: here.lon - (20 - i) * 0.0003, hdop: 0.9, sats: 9 },
      timestamp: nowS - 1200 + i * 60,
    }));
    await post('measurements/write', { device: 'demo-001', measurements: seeded }, demo.token1);
    const { page, errors } = await signedIn(`#/device/${demo.device1}`);
    try {
      await waitConnected(page);
      await page.waitForFunction(
        () =>
          Number((globalThis as unknown as Win).document.querySelector('.track-line')?.getAttribute('data-points')) >=
          21,
      );
      const before = Number(await page.locator('.track-line').getAttribute('data-points'));
      await post(
        'measurements/write',
        {
          device: 'demo-001',
          measurements: [
            { metric: 'gps', value: { lat: here.lat + 0.001, lon: here.lon + 0.001, hdop: 1.2, sats: 7 } },
          ],
        },
        demo.token1,
      );
      await page.waitForFunction(
        (b) =>
          Number((globalThis as unknown as Win).document.querySelector('.track-line')?.getAttribute('data-points')) > b,
        before,
      );
      assert.ok((await page.locator('.track .grid').count()) >= 4, 'a lat/lon grid');
      assert.match((await page.locator('.track .scale-label').textContent()) ?? '', /^\d+(\.\d+)? k?m$/);
      assert.match(await page.locator('.fix-info').innerText(), /hdop \d+(\.\d+)? · sats \d+ · \d+ s ago/);
      assert.equal(await page.locator('.track .fix').count(), 1);
      if (screenshots) {
        await page.locator('section.gnss').screenshot({ path: join(repoRoot, 'docs', 'dashboard-gnss.png') });
        await page.screenshot({ path: join(repoRoot, 'docs', 'dashboard-device.png'), fullPage: true });
      }
      assert.deepEqual(errors, []);
    } finally {
      await page.close();
    }
  });

  it('edits properties and follows their changes live; plots measurements; zooms the plots', async () => {
    const temperature = (value: number): unknown => ({
      device: 'demo-001',
      measurements: [{ metric: 'temperature', value }],
    });
    await post('measurements/write', temperature(20.5), demo.token1);
    const { page, errors } = await signedIn(`#/device/${demo.device1}`);
    try {
      await waitConnected(page);
      // A numeric measurement gets its own plot, which takes live points.
      await page.waitForSelector('.plot[data-metric="temperature"] .uplot');
      await post('measurements/write', temperature(21.5), demo.token1);
      await page.waitForFunction(
        () =>
          (globalThis as unknown as Win).document
            .querySelector('.plot[data-metric="temperature"]')
            ?.getAttribute('data-points') === '2',
      );
      await page.fill('#prop-sample-rate', '5');
      await page.click('text=Save properties');
      await page.waitForSelector('.props-status:has-text("saved sample-rate")');
      assert.equal(((await get('properties/get?device=demo-001')) as Record<string, unknown>)['sample-rate'], 5);
      await post('properties/set', { device: 'demo-001', values: { 'led-enabled': false } });
      await page.waitForFunction(
        () => (globalThis as unknown as Win).document.getElementById('prop-led-enabled')?.checked === false,
      );
      const windows: string[] = [];
      page.on('request', (r) => {
        if (r.url().includes('states/read?')) windows.push(new URL(r.url()).searchParams.get('windowPeriod') ?? '');
      });
      await page.click('button[data-range="604800"]');
      await page.waitForFunction(
        () =>
          (globalThis as unknown as Win).document
            .querySelector('button[data-range="604800"]')
            ?.getAttribute('aria-pressed') === 'true',
      );
      await page.waitForFunction(
        () => (globalThis as unknown as Win).document.querySelectorAll('.plot .uplot').length >= 8,
      );
      assert.ok(
        windows.length >= 8 && windows.every((w) => /^\d+s$/.test(w) && Number(w.slice(0, -1)) >= 500),
        windows.join(','),
      );
      assert.deepEqual(errors, []);
    } finally {
      await page.close();
    }
  });

  it('gives a device token its own device only', async () => {
    const { page, errors } = await openPage(browser);
    try {
      await page.goto(`${service.url}/`);
      await page.fill('#token', demo.token1);
      await page.press('#token', 'Enter');
      await page.waitForSelector('.sign-in .error:has-text("device token")');
      await page.fill('#device', 'demo-002');
      await page.press('#token', 'Enter');
      await page.waitForSelector('.sign-in .error:has-text("403")');
      await page.fill('#device', 'demo-001');
      await page.press('#token', 'Enter');
      await page.waitForSelector('tr[data-device="demo-001"]');
      assert.equal(await page.locator('tbody tr').count(), 1);
      await page.goto(`${service.url}/#/device/${demo.device2}`);
      await page.waitForSelector('p.error:has-text("another device")');
      await page.goto(`${service.url}/#/device/${demo.device1}`);
      await page.waitForSelector('[data-channel="relay"]');
      await waitConnected(page);
      assert.deepEqual(
        errors.filter((e) => !/40[13]/.test(e)),
        [],
      );
    } finally {
      await page.close();
    }
  });

  it('works at phone width with labelled, keyboard-reachable controls', async () => {
    const { page, errors } = await signedIn(`#/device/${demo.device1}`, 390);
    try {
      await page.waitForSelector('[data-channel="relay"] input');
      await page.waitForFunction(
        () => (globalThis as unknown as Win).document.querySelectorAll('.plot .uplot').length >= 8,
      );
      const overflow = await page.evaluate(() => {
        const w = globalThis as unknown as Win;
        return w.document.documentElement.scrollWidth - w.innerWidth;
      });
      assert.ok(overflow <= 0, `horizontal overflow ${overflow} px`);
      const unlabelled = await page.evaluate(
        () =>
          [...(globalThis as unknown as Win).document.querySelectorAll('input, button')].filter(
            (el) => el.labels?.length === 0 && (el.textContent ?? '').trim() === '' && !el.getAttribute('aria-label'),
          ).length,
      );
      assert.equal(unlabelled, 0);
      let reached = false;
      for (let i = 0; i < 40 && !reached; i++) {
        await page.keyboard.press('Tab');
        reached = await page.evaluate(
          () => (globalThis as unknown as Win).document.activeElement?.closest('[data-channel="relay"]') !== null,
        );
      }
      assert.ok(reached, 'Tab reaches the relay switch');
      if (screenshots) await page.screenshot({ path: join(repoRoot, 'docs', 'dashboard-phone.png') });
      assert.deepEqual(errors, []);
    } finally {
      await page.close();
    }
  });
});
