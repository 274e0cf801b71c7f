/**
 * The Node target and updates (`npm run agent`): it reports `fw-running` as the
 * package's version and `fw-status` `unsupported` for an update it cannot
 * apply (it installs no images), acting on the start-up property read and on
 * properties the hub pushes; nothing is downloaded.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { parseOptions } from '../../targets/node/options.js';
import { startNodeAgent } from '../../targets/node/runtime.js';
import { FakeClock, settle } from '../fakes/fake-clock.js';
import { FakeImageServer } from '../fakes/fake-image-server.js';
import { FakeLogger } from '../fakes/fake-logger.js';
import { FakeStore } from '../fakes/fake-store.js';

const version = (
  JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string }
).version;

describe('ota on the Node target', () => {
  it('reports fw-running = the package version, idle, then unsupported for a desired update', async () => {
    const options = parseOptions(
      ['--service', 'http://dds.test', '--device', 'dev', '--no-hub'],
      { DDS_TOKEN: 'device-token' },
      () => '',
    );
    const http = new FakeImageServer();
    const run = await startNodeAgent(options, {
      clock: new FakeClock(),
      http,
      store: new FakeStore(),
      logger: new FakeLogger(),
    });
    try {
      await settle(200);
      assert.deepEqual(http.reported, [{ 'fw-running': version, 'fw-status': 'idle' }]);
      // A properties Notify (through the agent's properties) asks for an update.
      run.agent.updateProperties(
        {
          'fw-version': '9.0.0',
          'fw-url': 'http://dds.test/firmware/x.bin',
          'fw-sha256': 'ab'.repeat(32),
          'fw-sig': Buffer.from([0x30, 0x44, ...new Array<number>(68).fill(1)]).toString('base64'),
        },
        false,
      );
      await settle(200);
      assert.deepEqual(http.reported[http.reported.length - 1], { 'fw-running': version, 'fw-status': 'unsupported' });
      assert.equal(http.ranges.length, 0, 'nothing downloaded');
      assert.equal(run.updater.status, 'unsupported');
    } finally {
      run.stop();
    }
  });
});
