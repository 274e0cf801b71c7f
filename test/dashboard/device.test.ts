/**
 * The dashboard's device page in headless Chromium (test/dashboard/harness.ts):
 * a refused value showing the device's errno, a range refused in the page, an
 * analog output's slider within its scaled range; the GNSS track with grid,
 * scale bar and fix quality, growing live; properties edited and followed
 * live; measurement plots and the range zoom; phone width, labels and
 * keyboard reach. DASHBOARD_SCREENSHOTS=1 writes docs/dashboard-*.png.
 */
import { strict as assert } from 'node:assert';
import { join } from 'node:path';
import { demo, repoRoot } from '../service/helpers.js';
import { type Win } from './browser.js';
import { useDashboard } from './harness.js';

const screenshots = process.env['DASHBOARD_SCREENSHOTS'] === '1';

describe('dashboard device page (Chromium)', function () {
  this.timeout(60_000);
  const d = useDashboard('dashboard device');
  const { post, get, signedIn, tileValue, waitConnected } = d;

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
