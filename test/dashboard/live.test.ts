/**
 * The dashboard's live side in headless Chromium (test/dashboard/harness.ts):
 * the device page grouped as configured and the time to its first values;
 * live values without a reload, and the hub's reconnecting state; the relay
 * switch round trip (pending, then confirmed by the device's echo), timed,
 * and timed again with a device whose batches close after 20 ms.
 *
 * Figures (printed as one JSON line after the suite): page open to first
 * values, desired click to confirmed echo on screen (p50/p99), a write to
 * the screen, page weight.
 */
import { strict as assert } from 'node:assert';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { parseDeviceOptions, startSimulatedAgent } from '../../host-sim/hardware/agent.js';
import { FakeLogger } from '../fakes/fake-logger.js';
import { demo } from '../service/helpers.js';
import { openPage, percentile, type Win } from './browser.js';
import { useDashboard } from './harness.js';

describe('dashboard live values and controls (Chromium)', function () {
  this.timeout(60_000);
  const d = useDashboard('dashboard');
  const { post, get, signedIn, tileValue, waitConnected } = d;

  it('opens a device page grouped as configured, and times the first values', async () => {
    // In-page time: from the navigation's start (performance.now() = 0) to the first value in the DOM.
    const times: number[] = [];
    const wall: number[] = [];
    for (let i = 0; i < 5; i++) {
      const { page, errors } = await openPage(d.browser);
      try {
        await page.addInitScript(
          (t) => (globalThis as unknown as Win).sessionStorage.setItem('dds.token', t),
          demo.admin,
        );
        const started = Date.now();
        await page.goto(`${d.service.url}/#/device/${demo.device1}`, { waitUntil: 'commit' });
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
          d.figures['pageWeightBytes'] = weight;
          const html = await (await fetch(`${d.service.url}/`)).text();
          let gz = gzipSync(html).length;
          for (const m of html.matchAll(/(?:src|href)="(\/dashboard\/[^"]+)"/g)) {
            gz += gzipSync(Buffer.from(await (await fetch(`${d.service.url}${m[1]}`)).arrayBuffer())).length;
          }
          d.figures['pageWeightGzipBytes'] = gz;
        }
        assert.deepEqual(errors, []);
      } finally {
        await page.close();
      }
    }
    d.figures['firstValuesMsMedian'] = percentile(times, 50);
    d.figures['firstValuesMsMax'] = Math.max(...times);
    d.figures['firstValuesWallMsMedian'] = percentile(wall, 50);
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
      d.figures['notifyToScreenMsP50'] = percentile(latencies, 50);
      // The hub drops: the header says so, the page reconnects by itself and reads what it missed.
      await page.evaluate(() => {
        const w = globalThis as unknown as Win;
        const status = w.document.getElementById('hub-status');
        w.seen = [];
        const mo = new w.MutationObserver(() => w.seen?.push(status?.dataset['state'] ?? ''));
        if (status) mo.observe(status, { attributes: true, attributeFilter: ['data-state'] });
      });
      d.service.hub.dropAll();
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
      await page.goto(`${d.service.url}/#/device/${demo.device1}`);
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

  it('switches the relay: pending until the device echoes, then confirmed (and measures it)', async () => {
    const { page, errors } = await signedIn(`#/device/${demo.device1}`);
    try {
      const latencies = await d.relayRounds(page, d.agent, 20);
      const checked = await page.locator('[data-channel="relay"] input').isChecked();
      const last = (await get(`states/read/last?device=demo-001&channels=relay.reported`)) as Array<{ value: unknown }>;
      assert.equal(last[0]?.value, checked, 'the device reported what the switch shows');
      assert.match(await page.locator('[data-channel="relay"] .write-state').innerText(), /^confirmed \(\d+ ms\)$/);
      assert.equal(d.agent.pins.history.filter((w) => w.pin === 5).length >= 20, true, 'the relay pin was driven');
      d.figures['desiredToEchoMsP50'] = Math.round(percentile(latencies, 50));
      d.figures['desiredToEchoMsP99'] = Math.round(percentile(latencies, 99));
      d.figures['desiredToEchoRounds'] = latencies.length;
      assert.deepEqual(errors, []);
    } finally {
      await page.close();
    }
  });

  it('measures the same round trip with a device whose batches close after 20 ms', async () => {
    // demo-002 runs here only: the live-value test before writes its states itself.
    const args = [
      '--service',
      d.service.url,
      '--device',
      'demo-002',
      '--token',
      demo.token2,
      '--store',
      join(d.dir, 'device2'),
    ];
    const prompt = await startSimulatedAgent(
      parseDeviceOptions(args, {}, () => ''),
      {
        logger: new FakeLogger(),
        hub: true,
        agent: { batch: { maxAgeMs: 20 } },
      },
    );
    const { page, errors } = await signedIn(`#/device/${demo.device2}`);
    try {
      const latencies = await d.relayRounds(page, prompt, 20);
      d.figures['desiredToEchoBatch20MsP50'] = Math.round(percentile(latencies, 50));
      d.figures['desiredToEchoBatch20MsP99'] = Math.round(percentile(latencies, 99));
      assert.deepEqual(errors, []);
    } finally {
      await page.close();
      prompt.stop();
    }
  });
});
