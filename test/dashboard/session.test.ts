/**
 * The dashboard in headless Chromium (test/dashboard/harness.ts): sign-in with
 * a token kept in sessionStorage and never in the URL, sign-out; the device
 * list with enabled state, last seen and the API's search; a device token
 * that sees only its own device.
 */
import { strict as assert } from 'node:assert';
import { demo } from '../service/helpers.js';
import { openPage, type Win } from './browser.js';
import { useDashboard } from './harness.js';

describe('dashboard sign-in and devices (Chromium)', function () {
  this.timeout(60_000);
  const d = useDashboard('dashboard session');
  const { signedIn, waitConnected } = d;

  it('signs in with an access token kept in sessionStorage, never in the URL', async () => {
    const { page, errors } = await openPage(d.browser);
    try {
      await page.goto(`${d.service.url}/`);
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

  it('gives a device token its own device only', async () => {
    const { page, errors } = await openPage(d.browser);
    try {
      await page.goto(`${d.service.url}/`);
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
      await page.goto(`${d.service.url}/#/device/${demo.device2}`);
      await page.waitForSelector('p.error:has-text("another device")');
      await page.goto(`${d.service.url}/#/device/${demo.device1}`);
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
});
