/**
 * The device list's Provisioned column (headless Chromium): `npm run provision`
 * records a provisioning as the device's property `provisioned-at`, set with
 * the device's own token (decisions 8); the list shows whether the device
 * reported since. demo-001 (the harness's running device) reports after a
 * provisioning dated in the past; demo-002 (no device runs) does not after one
 * dated now; a device never provisioned this way shows a dash.
 */
import { strict as assert } from 'node:assert';
import { recordProvisioning } from '../../host-sim/provision/provision.js';
import { FetchHttp } from '../../targets/node/http.js';
import { demo } from '../service/helpers.js';
import type { Win } from './browser.js';
import { useDashboard } from './harness.js';

describe('dashboard: reported since provisioned (Chromium)', function () {
  this.timeout(60_000);
  const d = useDashboard('dashboard provisioned');

  it('shows a dash before any provisioning, then whether each device reported since', async () => {
    let { page } = await d.signedIn('#/');
    const cell = (key: string) => page.locator(`tr[data-device="${key}"] .provisioned`);
    try {
      await page.waitForSelector('tr[data-device="demo-002"] .provisioned');
      assert.equal(await cell('demo-002').innerText(), '\u2014');
    } finally {
      await page.close();
    }
    const http = new FetchHttp({ timeoutMs: 5_000 });
    const earlier = new Date(Date.now() - 120_000).toISOString();
    await recordProvisioning(http, { baseUrl: d.service.url, device: 'demo-001', token: demo.token1 }, earlier);
    await recordProvisioning(
      http,
      { baseUrl: d.service.url, device: 'demo-002', token: demo.token2 },
      new Date(Date.now() + 60_000).toISOString(),
    );
    ({ page } = await d.signedIn('#/'));
    try {
      await page.waitForFunction(() =>
        (globalThis as unknown as Win).document
          .querySelector('tr[data-device="demo-001"] .provisioned')
          ?.textContent?.endsWith(', reported since'),
      );
      assert.match(await cell('demo-001').innerText(), /^2 min ago, reported since$/);
      assert.equal(await cell('demo-001').getAttribute('title'), earlier);
      assert.match(await cell('demo-002').innerText(), /, not reported since$/);
    } finally {
      await page.close();
    }
  });
});
