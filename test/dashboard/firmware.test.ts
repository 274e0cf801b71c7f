/**
 * Firmware updates from the dashboard (headless Chromium; docs/dashboard.md):
 * the device list shows each device's running version and update status
 * (`fw-running`, `fw-status`) and follows them live; an admin picks an image
 * of the service's firmware folder (its SHA-256, and the signature stored as
 * NAME.sig), selects devices and starts the update, which writes the four
 * desired properties to each selected device and to no other; bad input
 * writes nothing and says why; a device token gets no update controls.
 */
import { strict as assert } from 'node:assert';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { demoFixturePath } from '../../host-sim/service/fixture.js';
import { startService, type RunningService } from '../../host-sim/service/index.js';
import { demo } from '../service/helpers.js';
import { findChromium, launch, openPage, type Win } from './browser.js';

type Obj = Record<string, unknown>;
const image = randomBytes(20_000);
const sha = createHash('sha256').update(image).digest('hex');
const sig = 'MEUCIQDx' + 'A'.repeat(60) + '==';

describe('dashboard firmware updates (Chromium)', function () {
  this.timeout(60_000);
  let dir = '';
  let service: RunningService;
  let browser: Browser;

  before(async function () {
    const found = findChromium();
    if ('reason' in found) {
      process.stdout.write(`    (dashboard browser tests skipped: ${found.reason})\n`);
      this.skip();
    }
    dir = mkdtempSync(join(tmpdir(), 'dds-dashboard-fw-'));
    writeFileSync(join(dir, 'board-1.3.0.bin'), image);
    writeFileSync(join(dir, 'board-1.3.0.bin.sig'), `${sig}\n`);
    writeFileSync(join(dir, 'board-2.0.0-rc1.bin'), randomBytes(100));
    service = await startService({ fixture: demoFixturePath, firmware: { dir } });
    browser = await launch(found.path);
  });
  after(async () => {
    await browser?.close();
    await service?.close();
    if (dir !== '') rmSync(dir, { recursive: true, force: true });
  });

  const props = async (device: string): Promise<Obj> =>
    (await fetch(`${service.url}/api/v1/properties/get?device=${device}`, {
      headers: { Authorization: `Bearer ${demo.admin}` },
    }).then((r) => r.json())) as Obj;
  const setProps = async (device: string, values: Obj, token: string): Promise<void> => {
    const r = await fetch(`${service.url}/api/v1/properties/set`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ device, values }),
    });
    assert.equal(r.status, 200, await r.text());
  };
  async function signedIn(token: string, device = ''): Promise<{ page: Page; errors: string[] }> {
    const p = await openPage(browser);
    await p.page.addInitScript(
      ([t, d]) => {
        const w = globalThis as unknown as Win;
        w.sessionStorage.setItem('dds.token', t as string);
        if (d !== '') w.sessionStorage.setItem('dds.device', d as string);
      },
      [token, device],
    );
    await p.page.goto(`${service.url}/#/`);
    await p.page.waitForSelector('#hub-status[data-state="connected"]', { timeout: 10_000 });
    return p;
  }
  const cell = (page: Page, key: string, cls: string): Promise<string> =>
    page.locator(`tr[data-device="${key}"] .${cls}`).innerText();

  it('shows each device running version and update status, live', async () => {
    await setProps('demo-002', { 'fw-running': '1.2.0', 'fw-status': 'confirmed' }, demo.token2);
    const { page, errors } = await signedIn(demo.admin);
    try {
      await page.waitForSelector('tr[data-device="demo-002"] .fw-running:has-text("1.2.0")');
      assert.equal(await cell(page, 'demo-002', 'fw-status'), 'confirmed');
      assert.equal(await cell(page, 'demo-001', 'fw-running'), '–');
      // The board reports with its own token; the admin's page follows the Notify.
      await setProps('demo-001', { 'fw-running': '1.1.0', 'fw-status': 'downloading 40%' }, demo.token1);
      await page.waitForSelector('tr[data-device="demo-001"] .fw-status:has-text("downloading 40%")');
      assert.equal(await cell(page, 'demo-001', 'fw-running'), '1.1.0');
      await setProps('demo-001', { 'fw-status': 'failed EBADMSG' }, demo.token1);
      await page.waitForSelector('tr[data-device="demo-001"] .fw-status[data-status="failed"]');
      assert.deepEqual(errors, []);
    } finally {
      await page.close();
    }
  });

  it('starts an update of the picked image on the selected devices only', async () => {
    const { page, errors } = await signedIn(demo.admin);
    try {
      await page.waitForSelector('#fw-image option[value="board-1.3.0.bin"]', { state: 'attached' });
      const label = await page.locator('#fw-image option[value="board-1.3.0.bin"]').innerText();
      assert.match(label, new RegExp(`19\\.5 KiB, sha256 ${sha.slice(0, 12)}…, signed`));
      await page.selectOption('#fw-image', 'board-1.3.0.bin');
      assert.equal(await page.inputValue('#fw-version'), '1.3.0');
      assert.equal(await page.inputValue('#fw-sig'), sig);
      await page.click('#fw-start');
      await page.waitForSelector('.fw-result:has-text("Select the devices")');
      await page.check('tr[data-device="demo-002"] input[type=checkbox]');
      await page.click('#fw-start');
      await page.waitForSelector('.fw-result:has-text("Update to 1.3.0 started on 1 device(s).")');
      const p2 = await props('demo-002');
      assert.deepEqual(
        [p2['fw-version'], p2['fw-url'], p2['fw-sha256'], p2['fw-sig']],
        ['1.3.0', `${service.url}/firmware/board-1.3.0.bin`, sha, sig],
      );
      assert.equal((await props('demo-001'))['fw-version'], '', 'an unselected device is left alone');
      // Select all: both devices; the image's URL downloads the same bytes with a device token.
      await page.check('#select-all');
      await page.click('#fw-start');
      await page.waitForSelector('.fw-result:has-text("started on 2 device(s)")');
      const p1 = await props('demo-001');
      assert.equal(p1['fw-sha256'], sha);
      const got = await fetch(String(p1['fw-url']), { headers: { Authorization: `Bearer ${demo.token1}` } });
      assert.ok(Buffer.from(await got.arrayBuffer()).equals(image));
      assert.deepEqual(errors, []);
    } finally {
      await page.close();
    }
  });

  it('writes nothing for an image without a signature or a bad version, and says why', async () => {
    const before = await props('demo-001');
    const { page, errors } = await signedIn(demo.admin);
    try {
      await page.waitForSelector('#fw-image option[value="board-2.0.0-rc1.bin"]', { state: 'attached' });
      await page.selectOption('#fw-image', 'board-2.0.0-rc1.bin');
      await page.waitForSelector('.fw-result:has-text("No NAME.sig beside this image")');
      assert.equal(await page.inputValue('#fw-version'), '2.0.0-rc1');
      await page.check('#select-all');
      await page.click('#fw-start');
      await page.waitForSelector('.fw-result:has-text("Signature: the base64 fw-sig")');
      await page.fill('#fw-sig', sig);
      await page.fill('#fw-version', 'two point oh');
      await page.click('#fw-start');
      await page.waitForSelector('.fw-result:has-text("Version: 1 to 64")');
      assert.deepEqual(await props('demo-001'), before);
      assert.deepEqual(errors, []);
    } finally {
      await page.close();
    }
  });

  it('gives a device token no update controls', async () => {
    const { page, errors } = await signedIn(demo.token1, demo.device1);
    try {
      await page.waitForSelector('tr[data-device="demo-001"] .fw-running:has-text("1.1.0")');
      assert.equal(await page.locator('#fw-image').count(), 0);
      assert.equal(await page.locator('tr[data-device="demo-001"] input[type=checkbox]').count(), 0);
      assert.deepEqual(errors, []);
    } finally {
      await page.close();
    }
  });
});
