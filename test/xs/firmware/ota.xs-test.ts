/**
 * The board's update adapter (targets/moddable/ota.ts) and feature (feature-ota.ts)
 * on XS with fakes of the SDK's `ota`, `crypt`, ECDSA and our `bootslots`
 * (fake-ota-sdk.ts) and of the HTTP port (test/fakes/fake-image-server.ts): the
 * updater drives the SDK modules as documented, refuses a bad key, survives a
 * malformed signature the SDK's BER reader throws on, and confirms or rolls back
 * through `bootslots`. Run by `npm run test:firmware` (test/xs/run.mjs --dir=test/xs/firmware).
 */
import { isAgentError } from '../../../src/errors.js';
import { Updater } from '../../../src/ota/updater.js';
import { ServiceClient } from '../../../src/service/client.js';
import type { HubClient } from '../../../src/signalr/hub-client.js';
import { readUpdateSettings } from '../../../targets/moddable/ota-settings.js';
import { updatesOn } from '../../../targets/moddable/feature-ota.js';
import { moddableImagePorts } from '../../../targets/moddable/ota.js';
import { FakeClock, settle } from '../../fakes/fake-clock.js';
import { FakeImageServer } from '../../fakes/fake-image-server.js';
import { FakeLogger } from '../../fakes/fake-logger.js';
import { toBase64 } from '../../fakes/fake-ota.js';
import { FakeStore } from '../../fakes/fake-store.js';
import { assert } from '../../support/assert.js';
import { makeImage, propertiesFor } from '../../core/ota/harness.js';
import { sdk } from './fake-ota-sdk.js';

const header = [0x30, 0x59, 0x30, 0x13, 0x06, 0x07, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01, 0x06, 0x08, 0x2a];
const spki = (key: number): string =>
  toBase64(
    Uint8Array.from([
      ...header,
      0x86,
      0x48,
      0xce,
      0x3d,
      0x03,
      0x01,
      0x07,
      0x03,
      0x42,
      0x00,
      4,
      ...new Array<number>(63).fill(1),
      key,
    ]),
  );

function board(running: string, store = new FakeStore(), http = new FakeImageServer()) {
  const clock = new FakeClock();
  const logger = new FakeLogger();
  const client = new ServiceClient(http, { baseUrl: 'http://dds.test', device: 'dev', token: 't' });
  const updater = new Updater({
    clock,
    http,
    store,
    logger,
    client,
    running,
    image: moddableImagePorts(spki(7)),
    chunkBytes: 1000,
  });
  return { clock, http, store, logger, updater };
}

describe('board updates: the SDK adapter on XS', () => {
  beforeEach(() => sdk.reset());

  it('writes the image to the ota module in chunks, completes it once verified, and restarts through bootslots', async () => {
    const b = board('1.0.0');
    const image = makeImage(3500, 4);
    b.http.images.set('b.bin', image);
    b.http.properties = propertiesFor('1.1.0', image);
    await b.updater.start();
    await settle(2000);
    assert.deepEqual(sdk.opened, [3500]);
    assert.deepEqual(sdk.writes.flat(), Array.from(image));
    assert.equal(sdk.writes.length, 4);
    assert.equal(sdk.completed, 1);
    assert.equal(sdk.restarted, 1);
    assert.equal(b.updater.status, 'installed');
  });

  it('cancels on a signature by another key, and on a malformed one the SDK throws on (no abort)', async () => {
    for (const sig of [undefined, toBase64(Uint8Array.from([0x30, 0x50, 1, 2, 3, 4, 5, 6, 7, 8]))]) {
      sdk.reset();
      const b = board('1.0.0');
      const image = makeImage(2000, 5);
      b.http.images.set('b.bin', image);
      const p = propertiesFor('1.1.0', image, 'b.bin', 9);
      b.http.properties = sig === undefined ? p : { ...p, 'fw-sig': sig };
      await b.updater.start();
      await settle(2000);
      assert.equal(b.updater.status, 'failed EKEYREJECTED');
      assert.equal(sdk.cancelled, 1);
      assert.equal(sdk.completed, 0);
      assert.equal(sdk.restarted, 0);
    }
  });

  it('on trial: confirms through bootslots once delivered and connected; rolls back when the time runs out', async () => {
    const store = new FakeStore();
    store.set('ota/pending', JSON.stringify({ version: '1.1.0', id: '1.1.0 x' }));
    sdk.slotState = 'trial';
    const b = board('1.1.0', store);
    await b.updater.start();
    b.updater.delivered();
    b.updater.hubConnected();
    await settle(200);
    assert.equal(sdk.confirmed, 1);
    assert.equal(b.updater.status, 'confirmed');
    sdk.reset();
    sdk.slotState = 'trial';
    store.set('ota/pending', JSON.stringify({ version: '1.2.0', id: '1.2.0 y' }));
    const c = board('1.2.0', store);
    await c.updater.start();
    await c.clock.advanceAsync(300_000);
    assert.equal(sdk.rolledBack, 1);
    assert.equal(sdk.confirmed, 0);
  });

  it('refuses a key that is not an EC P-256 SPKI with config.invalid; the feature then reports unsupported', async () => {
    for (const key of ['', spki(7).slice(4), toBase64(new Uint8Array(91))]) {
      let error: unknown;
      try {
        moddableImagePorts(key);
      } catch (e) {
        error = e;
      }
      assert.ok(isAgentError(error, 'config.invalid'), key);
    }
    const board = readUpdateSettings({ fwVersion: '2.0.0', fwKey: toBase64(new Uint8Array(91)) }, () => undefined);
    const http = new FakeImageServer();
    const logger = new FakeLogger();
    const link = updatesOn(board, { clock: new FakeClock(), http, store: new FakeStore(), logger });
    const client = new ServiceClient(http, { baseUrl: 'http://dds.test', device: 'dev', token: 't' });
    link.start(client, { listen: () => () => undefined } as unknown as HubClient);
    link.offer(propertiesFor('2.1.0', makeImage(10)));
    await settle(200);
    assert.equal(logger.find('error', 'no updates').length, 1);
    assert.deepEqual(http.reported[http.reported.length - 1], { 'fw-running': '2.0.0', 'fw-status': 'unsupported' });
  });
});
